import { z } from 'zod';
import { Address, type PostalAddress } from '../../domain/address.js';
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
import { absent, acrossFields, isOneOf, present, whenOneOf } from '../../domain/validation.js';

/**
 * The bank accounts' use cases take these inputs: camelCase, in the domain's words. REST maps
 * the spec's snake_case bodies to them (rest-bodies.ts derives its body from NewBankAccount);
 * GraphQL passes its inputs as they are.
 */
export const ACCOUNT_HOLDER_TYPES = ['individual', 'business'] as const;
export type AccountHolderType = (typeof ACCOUNT_HOLDER_TYPES)[number];
/** `iban` (IBANAccountDetails), `us` (USAccountDetails), `swift` (InternationalWireAccountDetails). */
export const BANK_ACCOUNT_TYPES = ['iban', 'us', 'swift'] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];
export const US_ACCOUNT_TYPES = ['checking', 'savings'] as const;
export type UsAccountType = (typeof US_ACCOUNT_TYPES)[number];

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);
export const bankName = text(200);
export const holderName = text(100);
export const businessName = text(200);

/** A refinement with our stable error code (becomes `errors[].code`). */
const invalid = (code: string, message: string) => ({ message, params: { code } });

/** What JSON Schema cannot state of these identifiers (check digits, registries): the contract names valid examples. */
const checked = (what: string, examples: readonly unknown[]) => ({ examples: [...examples], 'x-ramp-checks': what });

export const bic = z
  .string()
  .transform(normalizeBic)
  .refine(isValidBic, invalid('invalid_bic', 'must be a BIC of 8 or 11 characters with a known country code'))
  .meta({ pattern: '^[A-Za-z]{6}[A-Za-z0-9]{2}(?:[A-Za-z0-9]{3})?$', ...checked('a known country code', ['DEUTDEFF', 'BNPAFRPP']) });

export const ibanNumber = z
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

export const abaRouting = z
  .string()
  .refine(isValidAbaRouting, invalid('invalid_routing_number', 'must be a 9-digit ABA routing number with a valid check digit'))
  .meta({ pattern: '^[0-9]{9}$', ...checked('the ABA check digit', ['021000021', '026009593']) });

export const usAccountNumber = z
  .string()
  .transform(normalizeAccountNumber)
  .refine(isValidUsAccountNumber, invalid('invalid_account_number', 'must be 4 to 17 digits'))
  .meta({ pattern: '^[0-9]{4,17}$' });

export const usAccountType = z.enum(US_ACCOUNT_TYPES).default('checking');

export const internationalAccountNumber = z
  .string()
  .transform(normalizeAccountNumber)
  .refine(isValidInternationalAccountNumber, invalid('invalid_account_number', 'must be 4 to 34 letters and digits (a valid IBAN when it is one)'))
  // Digits only: letters and digits that look like an IBAN must be a valid one, which no pattern states.
  .meta({ pattern: '^[0-9]{4,34}$' });

export const clearingCode = z
  .string()
  .transform(normalizeAccountNumber)
  .refine(isValidClearingCode, invalid('invalid_routing_number', 'must be a national clearing code of 3 to 20 letters and digits'))
  .meta({ pattern: '^[A-Za-z0-9]{3,20}$' });

/** An IBAN's country and its bank's BIC country agree. */
const ibanMatchesBic = acrossFields((details, report) => {
  // Only a pair of individually valid identifiers can disagree; their own errors are reported above.
  const { bic, ibanNumber: iban } = details;
  if (typeof bic !== 'string' || typeof iban !== 'string' || !isValidBic(bic) || ibanProblem(iban)) return;
  if (!ibanMatchesBicCountry(iban, bic)) report('bic', 'bic_country_mismatch', `is a bank in ${bicCountry(bic)}, but the IBAN is of ${ibanCountry(iban)}`);
});

/** A wire to a US bank is routed by its ABA number; a wrong one bounces at the Fed. */
const usBankRouting = acrossFields((swift, report) => {
  const { bic, routingNumber: routing } = swift;
  if (typeof bic !== 'string' || !isValidBic(bic) || typeof routing !== 'string' || !isValidClearingCode(routing)) return;
  if (bicCountry(bic) === 'US' && !isValidAbaRouting(routing))
    report('routingNumber', 'invalid_routing_number', 'must be a valid ABA routing number for a US bank');
});

/** Individuals are named by first and last name, businesses by business name; never both. */
const holderNames = acrossFields(
  (body, report) => {
    const type = body.accountHolderType;
    if (!isOneOf(ACCOUNT_HOLDER_TYPES, type)) return;
    const individual = type === 'individual';
    const names = ['accountHolderFirstName', 'accountHolderLastName'];
    const required = individual ? names : ['accountHolderBusinessName'];
    const forbidden = individual ? ['accountHolderBusinessName'] : names;
    for (const field of required) if (body[field] == null) report(field, 'required', `is required for ${type} account holders`);
    for (const field of forbidden) if (body[field] != null) report(field, 'not_allowed', `is not allowed for ${type} account holders`);
  },
  (name) => {
    const names = [name('accountHolderFirstName'), name('accountHolderLastName')];
    const business = [name('accountHolderBusinessName')];
    return {
      allOf: [
        whenOneOf(name('accountHolderType'), ['individual'], { allOf: [present(names), absent(business)] }),
        whenOneOf(name('accountHolderType'), ['business'], { allOf: [present(business), absent(names)] }),
      ],
    };
  },
);

/** Exactly the details object that the account type names. */
const variantDetails = acrossFields(
  (body, report, name) => {
    const named = body.accountType;
    if (!isOneOf(BANK_ACCOUNT_TYPES, named)) return;
    for (const type of BANK_ACCOUNT_TYPES) {
      const present = body[type] != null;
      if (type === named && !present) report(type, 'required', `is required when ${name('accountType')} is ${type}`);
      else if (type !== named && present) report(type, 'not_allowed', `is not allowed when ${name('accountType')} is ${named}`);
    }
  },
  (name) => ({
    allOf: BANK_ACCOUNT_TYPES.map((type) =>
      whenOneOf(name('accountType'), [type], { allOf: [present([type]), absent(BANK_ACCOUNT_TYPES.filter((other) => other !== type))] }),
    ),
  }),
);

/** What the contract says of an IBAN's details beyond their shape, and valid ones of a SEPA country and of the UAE (the payout rails narrow them by country). */
export const IBAN_CHECKS = "the IBAN's check digits, and its country against the BIC's";
export const IBAN_EXAMPLES = [
  { bic: 'DEUTDEFF', ibanNumber: 'DE89370400440532013000' },
  { bic: 'EBILAEAD', ibanNumber: 'AE070331234567890123456' },
] as const;

/** The stored and shown address of an account holder (the spec's snake_case jsonb). */
export type AccountHolderAddress = PostalAddress;

export { Address };

/**
 * A bank account to register for a customer: exactly the variant named by `accountType`
 * (the partner API's external account). Numbers come out normalised (upper case, no spaces).
 */
export const NewBankAccount = z
  .strictObject({
    bankName,
    accountHolderType: z.enum(ACCOUNT_HOLDER_TYPES),
    accountHolderFirstName: holderName.optional(),
    accountHolderLastName: holderName.optional(),
    accountHolderBusinessName: businessName.optional(),
    accountHolderAddress: Address,
    accountType: z.enum(BANK_ACCOUNT_TYPES),
    iban: z.strictObject({ bic, ibanNumber }).check(ibanMatchesBic).meta(checked(IBAN_CHECKS, IBAN_EXAMPLES)).optional(),
    us: z.strictObject({ accountNumber: usAccountNumber, routingNumber: abaRouting, accountType: usAccountType }).optional(),
    swift: z.strictObject({ accountNumber: internationalAccountNumber, bic, routingNumber: clearingCode.optional() }).check(usBankRouting).optional(),
  })
  .check(holderNames, variantDetails);
export type NewBankAccount = z.input<typeof NewBankAccount>;
export type ValidNewBankAccount = z.output<typeof NewBankAccount>;
