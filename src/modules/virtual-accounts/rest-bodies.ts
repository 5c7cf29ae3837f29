import { z } from 'zod';
import { FIAT_CURRENCIES, NETWORKS, PAYMENT_RAILS, TOKENS } from '../../domain/money.js';
import { named, timestampAnswer, uuidAnswer } from '../../platform/openapi-schemas.js';
import {
  type NewVirtualAccount,
  type PendingIssuance,
  VIRTUAL_ACCOUNT_SOURCE_RAILS,
  VIRTUAL_ACCOUNT_STATUSES,
  accountRules,
  destinationAddress,
  developerFeePercent,
  uuid,
} from './inputs.js';

/**
 * The spec's virtual-account bodies (§4.3), snake_case, with the domain's field rules, and their
 * mapping to the use cases' inputs. Every domain field is the body's, snake-cased: no renames.
 */
export const SIMULATE_ACTIONS = ['issue_pending_virtual_account'] as const;

/** Body of POST /v0/customers/{customer_id}/virtual-account. */
export const NewVirtualAccountBody = z
  .strictObject({
    source_currency: z.enum(FIAT_CURRENCIES),
    source_rails: z.enum(VIRTUAL_ACCOUNT_SOURCE_RAILS).nullish(),
    // Not required by the spec; USDC when omitted.
    destination_token: z.enum(TOKENS).default('usdc'),
    destination_network: z.enum(NETWORKS),
    destination_address: destinationAddress.nullish(),
    developer_fee_percent: developerFeePercent.nullish(),
  })
  .check(
    accountRules((b) => ({ currency: b.source_currency, rails: b.source_rails, network: b.destination_network, address: b.destination_address }), {
      rails: 'source_rails',
      address: 'destination_address',
    }),
  );

export const newVirtualAccountOf = (body: z.infer<typeof NewVirtualAccountBody>): NewVirtualAccount => ({
  sourceCurrency: body.source_currency,
  sourceRails: body.source_rails ?? undefined,
  destinationToken: body.destination_token,
  destinationNetwork: body.destination_network,
  destinationAddress: body.destination_address ?? undefined,
  developerFeePercent: body.developer_fee_percent ?? undefined,
});

/** Body of POST /v0/customers/{customer_id}/virtual-account/simulate (sandbox only). */
export const SimulationBody = z.strictObject({
  action: z.enum(SIMULATE_ACTIONS),
  virtual_account_id: uuid,
});

export const pendingIssuanceOf = (body: z.infer<typeof SimulationBody>): PendingIssuance => ({ virtualAccountId: body.virtual_account_id });

// ——— Answers (the OpenAPI document's response schemas; presenters.ts builds them) ———

/** Where the customer sends fiat: one of `us`, `iban` or `swift`, by the account's rails. */
export const DepositInstructionsAnswer = named(
  'DepositInstructions',
  z.strictObject({
    currency: z.enum(FIAT_CURRENCIES),
    payment_rails: z.array(z.enum(PAYMENT_RAILS)),
    bank_name: z.string(),
    bank_address: z.string(),
    account_holder_name: z.string(),
    us: z.strictObject({ routing_number: z.string(), account_number: z.string() }).optional(),
    iban: z.strictObject({ bic: z.string(), iban_number: z.string() }).optional(),
    swift: z.strictObject({ bic: z.string(), account_number: z.string(), routing_number: z.string() }).optional(),
  }),
);

export const VirtualAccountAnswer = named(
  'VirtualAccount',
  z.strictObject({
    id: uuidAnswer(),
    virtual_account_id: uuidAnswer(),
    customer_id: uuidAnswer(),
    status: z.enum(VIRTUAL_ACCOUNT_STATUSES),
    source_currency: z.enum(FIAT_CURRENCIES),
    source_rails: z.enum(VIRTUAL_ACCOUNT_SOURCE_RAILS).nullable(),
    destination_token: z.enum(TOKENS),
    destination_network: z.enum(NETWORKS),
    destination_address: z.string().nullable(),
    developer_fee_percent: z.string().nullable(),
    deposit_instructions: DepositInstructionsAnswer.nullable(),
    created_at: timestampAnswer(),
    updated_at: timestampAnswer(),
  }),
);

/** The 202 of a creation the banking partner has yet to confirm. */
export const PendingVirtualAccountAnswer = named(
  'PendingVirtualAccount',
  z.strictObject({ id: uuidAnswer(), virtual_account_id: uuidAnswer(), status: z.literal('pending') }),
);
