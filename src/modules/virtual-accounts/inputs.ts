import { z } from 'zod';
import { isValidAddress } from '../../domain/identifiers/chain.js';
import { DECIMAL_PATTERN, Decimal, FIAT_CURRENCIES, NETWORKS, TOKENS } from '../../domain/money.js';

export const VIRTUAL_ACCOUNT_STATUSES = ['pending', 'active'] as const;
export type VirtualAccountStatus = (typeof VIRTUAL_ACCOUNT_STATUSES)[number];
/** The only rails a partner names: SWIFT, for USD accounts that take international wires. */
export const VIRTUAL_ACCOUNT_SOURCE_RAILS = ['swift'] as const;
export const SIMULATE_ACTIONS = ['issue_pending_virtual_account'] as const;

/** Developer fees are percentages: at most 100, at most 8 decimals (the column is numeric(11,8)). */
export const DEVELOPER_FEE_MAX_DECIMALS = 8;
const developerFeePercent = z
  .string()
  // abort: the refinements below parse the value, which only makes sense once it is a decimal.
  .regex(DECIMAL_PATTERN, { message: 'must be a non-negative decimal such as "0.5"', abort: true })
  .refine((v) => new Decimal(v).lte(100), { message: 'must be at most 100', params: { code: 'too_big' } })
  .refine((v) => new Decimal(v).decimalPlaces() <= DEVELOPER_FEE_MAX_DECIMALS, {
    message: `must have at most ${DEVELOPER_FEE_MAX_DECIMALS} decimal places`,
    params: { code: 'too_precise' },
  });

/** Body of POST /v0/customers/{customer_id}/virtual-account (spec §4.3). */
export const CreateVirtualAccountInput = z
  .strictObject({
    source_currency: z.enum(FIAT_CURRENCIES),
    source_rails: z.enum(VIRTUAL_ACCOUNT_SOURCE_RAILS).nullish(),
    // Not required by the spec; USDC when omitted, so "omitted" and "usdc" are the same account.
    destination_token: z.enum(TOKENS).default('usdc'),
    destination_network: z.enum(NETWORKS),
    destination_address: z.string().trim().min(1).max(128).nullish(),
    developer_fee_percent: developerFeePercent.nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.source_rails && body.source_currency !== 'usd') {
      ctx.addIssue({ code: 'custom', path: ['source_rails'], message: 'swift is available only for usd', params: { code: 'not_allowed' } });
    }
    if (body.destination_address && !isValidAddress(body.destination_network, body.destination_address)) {
      ctx.addIssue({
        code: 'custom',
        path: ['destination_address'],
        message: `is not a valid ${body.destination_network} address`,
        params: { code: 'invalid_address' },
      });
    }
  });
export type CreateVirtualAccount = z.infer<typeof CreateVirtualAccountInput>;

const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');

/** Body of POST /v0/customers/{customerId}/virtual-account/simulate (sandbox only). */
export const SimulateVirtualAccountInput = z.strictObject({
  action: z.enum(SIMULATE_ACTIONS),
  virtual_account_id: uuid,
});

