import { z } from 'zod';
import { type PostalAddress, PostalAddressInput } from '../../domain/address.js';
import {
  bicCountry,
  ibanCountry,
  ibanMatchesBicCountry,
  ibanProblem,
  isValidAbaRouting,
  isValidBic,
  isValidClearingCode,
  isValidInternationalAccountNumber,
  isValidUsAccountNumber,
  normalizeAccountNumber,
  normalizeBic,
  normalizeIban,
} from '../../domain/identifiers/bank.js';

export const ACCOUNT_HOLDER_TYPES = ['individual', 'business'] as const;
export type AccountHolderType = (typeof ACCOUNT_HOLDER_TYPES)[number];
/** `iban` (IBANAccountDetails), `us` (USAccountDetails), `swift` (InternationalWireAccountDetails). */
export const BANK_ACCOUNT_TYPES = ['iban', 'us', 'swift'] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];
export const US_ACCOUNT_TYPES = ['checking', 'savings'] as const;
export type UsAccountType = (typeof US_ACCOUNT_TYPES)[number];

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);
const name = text(100);

/** A refinement with our stable error code (becomes `errors[].code`). */
const invalid = (code: string, message: string) => ({ message, params: { code } });

const bic = z
  .string()
  .transform(normalizeBic)
  .refine(isValidBic, invalid('invalid_bic', 'must be a BIC of 8 or 11 characters with a known country code'));

const ibanNumber = z
  .string()
  .transform(normalizeIban)
  .superRefine((iban, ctx) => {
    const problem = ibanProblem(iban);
    if (!problem) return;
    const why = {
      format: 'is not shaped like an IBAN',
      country: 'does not start with the code of an IBAN country',
      length: 'has the wrong length for its country',
      checksum: 'fails the IBAN check digits',
    }[problem];
    ctx.addIssue({ code: 'custom', message: why, params: { code: 'invalid_iban' } });
  });

const abaRouting = z
  .string()
  .refine(isValidAbaRouting, invalid('invalid_routing_number', 'must be a 9-digit ABA routing number with a valid check digit'));

export const AccountHolderAddressInput = PostalAddressInput;
export type AccountHolderAddress = PostalAddress;

const IbanDetailsInput = z.strictObject({ bic, iban_number: ibanNumber }).superRefine((details, ctx) => {
  // Only a pair of individually valid identifiers can disagree; their own errors are reported above.
  if (!isValidBic(details.bic) || ibanProblem(details.iban_number)) return;
  if (!ibanMatchesBicCountry(details.iban_number, details.bic)) {
    ctx.addIssue({
      code: 'custom',
      path: ['bic'],
      ...invalid('bic_country_mismatch', `is a bank in ${bicCountry(details.bic)}, but the IBAN is of ${ibanCountry(details.iban_number)}`),
    });
  }
});

const UsDetailsInput = z.strictObject({
  account_number: z
    .string()
    .transform(normalizeAccountNumber)
    .refine(isValidUsAccountNumber, invalid('invalid_account_number', 'must be 4 to 17 digits')),
  routing_number: abaRouting,
  account_type: z.enum(US_ACCOUNT_TYPES).default('checking'),
});

const SwiftDetailsInput = z
  .strictObject({
    account_number: z
      .string()
      .transform(normalizeAccountNumber)
      .refine(isValidInternationalAccountNumber, invalid('invalid_account_number', 'must be 4 to 34 letters and digits (a valid IBAN when it is one)')),
    bic,
    routing_number: z
      .string()
      .transform(normalizeAccountNumber)
      .refine(isValidClearingCode, invalid('invalid_routing_number', 'must be a national clearing code of 3 to 20 letters and digits'))
      .optional(),
  })
  .superRefine((swift, ctx) => {
    // A wire to a US bank is routed by its ABA number; a wrong one bounces at the Fed.
    if (swift.routing_number && swift.bic.slice(4, 6) === 'US' && !isValidAbaRouting(swift.routing_number)) {
      ctx.addIssue({ code: 'custom', path: ['routing_number'], ...invalid('invalid_routing_number', 'must be a valid ABA routing number for a US bank') });
    }
  });

export type IbanDetails = z.infer<typeof IbanDetailsInput>;
export type UsDetails = z.infer<typeof UsDetailsInput>;
export type SwiftDetails = z.infer<typeof SwiftDetailsInput>;

interface HolderFields {
  account_holder_type: AccountHolderType;
  account_holder_first_name?: string | null;
  account_holder_last_name?: string | null;
  account_holder_business_name?: string | null;
}

/** Individuals are named by first and last name, businesses by business name; never both. */
function holderNames(value: HolderFields, ctx: z.RefinementCtx) {
  const issue = (field: string, code: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message, params: { code } });
  const individual = value.account_holder_type === 'individual';
  const required = individual ? ['account_holder_first_name', 'account_holder_last_name'] : ['account_holder_business_name'];
  const forbidden = individual ? ['account_holder_business_name'] : ['account_holder_first_name', 'account_holder_last_name'];
  const fields = value as unknown as Record<string, unknown>;
  for (const field of required) if (fields[field] == null) issue(field, 'required', `is required for ${value.account_holder_type} account holders`);
  for (const field of forbidden) if (fields[field] != null) issue(field, 'not_allowed', `is not allowed for ${value.account_holder_type} account holders`);
}

/** Exactly the details object that `account_type` names. */
function variantDetails(value: { account_type: BankAccountType } & Partial<Record<BankAccountType, unknown>>, ctx: z.RefinementCtx) {
  for (const type of BANK_ACCOUNT_TYPES) {
    const present = value[type] != null;
    if (type === value.account_type && !present) {
      ctx.addIssue({ code: 'custom', path: [type], message: `is required when account_type is ${type}`, params: { code: 'required' } });
    } else if (type !== value.account_type && present) {
      ctx.addIssue({ code: 'custom', path: [type], message: `is not allowed when account_type is ${value.account_type}`, params: { code: 'not_allowed' } });
    }
  }
}

interface CommonDetails {
  bank_name: string;
  account_holder_type: AccountHolderType;
  account_holder_first_name: string | null;
  account_holder_last_name: string | null;
  account_holder_business_name: string | null;
  account_holder_address: AccountHolderAddress;
}

/** A validated, normalised bank account: one of the spec's three variants (§2.2). */
export type BankAccountDetails = CommonDetails &
  ({ account_type: 'iban'; iban: IbanDetails } | { account_type: 'us'; us: UsDetails } | { account_type: 'swift'; swift: SwiftDetails });

/**
 * The body of POST /v0/customers/{id}/external-accounts, and the inline `destination_bank_account`
 * of an off-ramp transfer. Numbers come out normalised (upper case, no spaces).
 */
export const BankAccountDetailsInput = z
  .strictObject({
    bank_name: text(200),
    account_holder_type: z.enum(ACCOUNT_HOLDER_TYPES),
    account_holder_first_name: name.nullish(),
    account_holder_last_name: name.nullish(),
    account_holder_business_name: text(200).nullish(),
    account_holder_address: AccountHolderAddressInput,
    account_type: z.enum(BANK_ACCOUNT_TYPES),
    iban: IbanDetailsInput.nullish(),
    us: UsDetailsInput.nullish(),
    swift: SwiftDetailsInput.nullish(),
  })
  .superRefine(holderNames)
  .superRefine(variantDetails)
  .transform((body): BankAccountDetails => {
    const common: CommonDetails = {
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

