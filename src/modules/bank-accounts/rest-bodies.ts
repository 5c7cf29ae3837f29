import { z } from 'zod';
import { PostalAddressInput } from '../../domain/address.js';
import { named, timestampAnswer, uuidAnswer } from '../../platform/openapi-schemas.js';
import {
  ACCOUNT_HOLDER_TYPES,
  BANK_ACCOUNT_TYPES,
  US_ACCOUNT_TYPES,
  type BankAccountFields,
  type NewBankAccount,
  abaRouting,
  bankName,
  bic,
  businessName,
  clearingCode,
  holderName,
  holderNames,
  ibanMatchesBic,
  ibanNumber,
  internationalAccountNumber,
  usAccountNumber,
  usAccountType,
  usBankRouting,
  variantDetails,
} from './inputs.js';
import type { BankAccountDetails } from './records.js';

/**
 * The spec's bank account body (§2.2), snake_case, with the domain's field rules, and its mapping
 * to the use case's input. Every body field is the domain's snake-cased, so domain pointers come
 * back through withRestPointers with no renames (`/accountHolderAddress/streetLine1` →
 * `/account_holder_address/street_line_1`).
 */
export const BANK_ACCOUNT_POINTERS = {};

const REST_FIELDS: BankAccountFields = {
  accountType: 'account_type',
  accountHolderType: 'account_holder_type',
  accountHolderFirstName: 'account_holder_first_name',
  accountHolderLastName: 'account_holder_last_name',
  accountHolderBusinessName: 'account_holder_business_name',
  ibanNumber: 'iban_number',
  routingNumber: 'routing_number',
};

/**
 * The body of POST /v0/customers/{id}/external-accounts, and the inline `destination_bank_account`
 * of an off-ramp transfer (transfers parse it as part of their own body).
 */
export const BankAccountBody = z
  .strictObject({
    bank_name: bankName,
    account_holder_type: z.enum(ACCOUNT_HOLDER_TYPES),
    account_holder_first_name: holderName.nullish(),
    account_holder_last_name: holderName.nullish(),
    account_holder_business_name: businessName.nullish(),
    account_holder_address: PostalAddressInput,
    account_type: z.enum(BANK_ACCOUNT_TYPES),
    iban: z.strictObject({ bic, iban_number: ibanNumber }).check(ibanMatchesBic(REST_FIELDS)).nullish(),
    us: z.strictObject({ account_number: usAccountNumber, routing_number: abaRouting, account_type: usAccountType }).nullish(),
    swift: z
      .strictObject({ account_number: internationalAccountNumber, bic, routing_number: clearingCode.optional() })
      .check(usBankRouting(REST_FIELDS))
      .nullish(),
  })
  .check(holderNames(REST_FIELDS), variantDetails(REST_FIELDS))
  .transform((body): BankAccountDetails => {
    const common = {
      bank_name: body.bank_name,
      account_holder_type: body.account_holder_type,
      account_holder_first_name: body.account_holder_first_name ?? null,
      account_holder_last_name: body.account_holder_last_name ?? null,
      account_holder_business_name: body.account_holder_business_name ?? null,
      account_holder_address: body.account_holder_address,
    };
    // variantDetails guaranteed the object named by account_type is present.
    if (body.account_type === 'iban') return { ...common, account_type: 'iban', iban: body.iban! };
    if (body.account_type === 'us') return { ...common, account_type: 'us', us: body.us! };
    return { ...common, account_type: 'swift', swift: body.swift! };
  });

/** The use case's input for a parsed body. */
export function newBankAccountOf(details: BankAccountDetails): NewBankAccount {
  const a = details.account_holder_address;
  return {
    bankName: details.bank_name,
    accountHolderType: details.account_holder_type,
    accountHolderFirstName: details.account_holder_first_name ?? undefined,
    accountHolderLastName: details.account_holder_last_name ?? undefined,
    accountHolderBusinessName: details.account_holder_business_name ?? undefined,
    accountHolderAddress: { country: a.country, city: a.city, streetLine1: a.street_line_1, postalCode: a.postal_code, state: a.state },
    accountType: details.account_type,
    ...(details.account_type === 'iban' && { iban: { bic: details.iban.bic, ibanNumber: details.iban.iban_number } }),
    ...(details.account_type === 'us' && {
      us: { accountNumber: details.us.account_number, routingNumber: details.us.routing_number, accountType: details.us.account_type },
    }),
    ...(details.account_type === 'swift' && {
      swift: { accountNumber: details.swift.account_number, bic: details.swift.bic, routingNumber: details.swift.routing_number },
    }),
  };
}

// ——— Answers (the OpenAPI document's response schemas; presenters.ts builds them) ———

const address = z.strictObject({
  country: z.string(),
  city: z.string(),
  street_line_1: z.string(),
  postal_code: z.string().optional(),
  state: z.string().optional(),
});

/** A bank account as shown (§2.2): numbers masked except in the answer that creates it; only the variant of `account_type`. */
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
