import { z } from 'zod';
import { addressOnNetworkSchema, isValidAddress } from '../../domain/identifiers/chain.js';
import { DECIMAL_PATTERN, Decimal, FEE_PERCENT_PATTERN, FIAT_CURRENCIES, NETWORKS, TOKENS } from '../../domain/money.js';
import { acrossFields, isOneOf, whenOneOf } from '../../domain/validation.js';
import { UUID_PATTERN } from '../../domain/identifiers/uuid.js';

export const VIRTUAL_ACCOUNT_STATUSES = ['pending', 'active'] as const;
export type VirtualAccountStatus = (typeof VIRTUAL_ACCOUNT_STATUSES)[number];
/** The only rails a partner names: SWIFT, for USD accounts that take international wires. */
export const VIRTUAL_ACCOUNT_SOURCE_RAILS = ['swift'] as const;

/** Developer fees are percentages: at most 100, at most 8 decimals (the column is numeric(11,8)). */
export const DEVELOPER_FEE_MAX_DECIMALS = 8;
const isDecimal = (v: string) => DECIMAL_PATTERN.test(v);
export const developerFeePercent = z
  .string()
  .regex(DECIMAL_PATTERN, 'must be a non-negative decimal such as "0.5"')
  // Not `abort`: it would stop the rules across fields too. Each refinement checks the form it parses.
  .refine((v) => !isDecimal(v) || new Decimal(v).lte(100), { message: 'must be at most 100', params: { code: 'too_big' } })
  .refine((v) => !isDecimal(v) || new Decimal(v).decimalPlaces() <= DEVELOPER_FEE_MAX_DECIMALS, {
    message: `must have at most ${DEVELOPER_FEE_MAX_DECIMALS} decimal places`,
    params: { code: 'too_precise' },
  })
  .meta({ pattern: FEE_PERCENT_PATTERN, examples: ['0.5'] });

export const destinationAddress = z.string().trim().min(1).max(128);

/** SWIFT only for USD; the destination address valid for its network. */
const accountRules = acrossFields(
  (account, report) => {
    const { sourceCurrency: currency, sourceRails: rails, destinationNetwork: network, destinationAddress: address } = account;
    if (isOneOf(VIRTUAL_ACCOUNT_SOURCE_RAILS, rails) && isOneOf(FIAT_CURRENCIES, currency) && currency !== 'usd') {
      report('sourceRails', 'not_allowed', 'swift is available only for usd');
    }
    if (typeof address === 'string' && address.trim() && address.length <= 128 && isOneOf(NETWORKS, network) && !isValidAddress(network, address.trim())) {
      report('destinationAddress', 'invalid_address', `is not a valid ${network} address`);
    }
  },
  (name) => ({
    allOf: [
      whenOneOf(name('sourceRails'), VIRTUAL_ACCOUNT_SOURCE_RAILS, { properties: { [name('sourceCurrency')]: { const: 'usd' } } }),
      addressOnNetworkSchema(name('destinationNetwork'), name('destinationAddress')),
    ],
  }),
);

/** A virtual account to open for a customer. */
export const NewVirtualAccount = z
  .strictObject({
    sourceCurrency: z.enum(FIAT_CURRENCIES),
    sourceRails: z.enum(VIRTUAL_ACCOUNT_SOURCE_RAILS).optional(),
    // USDC when omitted, so "omitted" and "usdc" are the same account.
    destinationToken: z.enum(TOKENS).default('usdc'),
    destinationNetwork: z.enum(NETWORKS),
    destinationAddress: destinationAddress.optional(),
    developerFeePercent: developerFeePercent.optional(),
  })
  .check(accountRules);
export type NewVirtualAccount = z.input<typeof NewVirtualAccount>;

export const uuid = z.string().regex(UUID_PATTERN, 'must be a UUID');

/** Sandbox: which pending account the banking partner issues. */
export const PendingIssuance = z.strictObject({ virtualAccountId: uuid });
export type PendingIssuance = z.input<typeof PendingIssuance>;
