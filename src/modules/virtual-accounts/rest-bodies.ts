import { z } from 'zod';
import { FIAT_CURRENCIES, NETWORKS, PAYMENT_RAILS, TOKENS } from '../../domain/money.js';
import { named, timestampAnswer, uuidAnswer } from '../../rest/openapi/schemas.js';
import { restBodyOf } from '../../rest/bodies.js';
import { NewVirtualAccount, type PendingIssuance, uuid, VIRTUAL_ACCOUNT_SOURCE_RAILS, VIRTUAL_ACCOUNT_STATUSES } from './inputs.js';

/** The sandbox steps of POST /v0/customers/{customer_id}/virtual-account/simulate. */
export const SIMULATE_ACTIONS = ['issue_pending_virtual_account'] as const;

/** Body of POST /v0/customers/{customer_id}/virtual-account: the use case's input snake-cased, parsed into it. */
export const NewVirtualAccountBody = restBodyOf(NewVirtualAccount);

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
