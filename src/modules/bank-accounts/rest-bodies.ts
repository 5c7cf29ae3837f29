import { z } from 'zod';
import { named, timestampAnswer, uuidAnswer } from '../../rest/openapi/schemas.js';
import { restBodyOf } from '../../rest/bodies.js';
import { ACCOUNT_HOLDER_TYPES, BANK_ACCOUNT_TYPES, NewBankAccount, US_ACCOUNT_TYPES } from './inputs.js';

/**
 * The body of POST /v0/customers/{id}/external-accounts, and the inline
 * `destination_bank_account` of an off-ramp transfer (transfers parse it as part of their own
 * body): the use case's input (NewBankAccount) snake-cased, its rules and all, parsed into that
 * input. Domain pointers come back through withRestPointers with no renames
 * (`/accountHolderAddress/streetLine1` → `/account_holder_address/street_line_1`).
 */
export const BankAccountBody = restBodyOf(NewBankAccount);

// ——— Answers (the OpenAPI document's response schemas; presenters.ts builds them) ———

const address = z.strictObject({
  country: z.string(),
  city: z.string(),
  street_line_1: z.string(),
  postal_code: z.string().optional(),
  state: z.string().optional(),
});

/** A bank account as REST shows it: numbers masked except in the answer that creates it; only the variant of `account_type`. */
export const BankAccountDetailsAnswer = named(
  'BankAccountDetails',
  z.strictObject({
    bank_name: z.string(),
    account_holder_type: z.enum(ACCOUNT_HOLDER_TYPES),
    account_holder_first_name: z.string().nullable(),
    account_holder_last_name: z.string().nullable(),
    account_holder_business_name: z.string().nullable(),
    account_holder_address: address,
    account_type: z.enum(BANK_ACCOUNT_TYPES),
    iban: z.strictObject({ bic: z.string(), iban_number: z.string() }).optional(),
    us: z.strictObject({ account_number: z.string(), routing_number: z.string(), account_type: z.enum(US_ACCOUNT_TYPES) }).optional(),
    swift: z.strictObject({ account_number: z.string(), bic: z.string(), routing_number: z.string().optional() }).optional(),
  }),
);

export const ExternalAccountAnswer = named(
  'ExternalAccount',
  z.strictObject({
    id: uuidAnswer(),
    external_account_id: uuidAnswer(),
    customer_id: uuidAnswer(),
    created_at: timestampAnswer(),
    ...BankAccountDetailsAnswer.shape,
  }),
);
