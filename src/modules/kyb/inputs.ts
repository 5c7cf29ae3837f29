import { z } from 'zod';
import {
  BUSINESS_TYPES,
  IDENTITY_DOCUMENT_NAMES,
  LEGAL_REPRESENTATION_TYPES,
  alpha3OfEnglishName,
  isAlpha3Country,
  isCalendarDate,
  LATIN_TEXT_PATTERN,
  isLatinText,
  todayUtc,
} from '../../domain/kyb.js';

/*
 * The KYB use cases take these inputs (BusinessBasicDetails, BusinessAddress, LegalRepresentative).
 * The KYB import's bodies spell their fields in camelCase too: REST's own schemas (rest-bodies.ts) use
 * the same field rules under the spec's names; GraphQL passes its inputs as they are.
 */

/** Every field of the KYB import is a required string; each failure names its field and a stable code. */
// `abort` stops at the first failure of a field, so each field reports one clear problem.
const text = (max: number) => z.string().trim().min(1, { message: 'must not be empty', abort: true }).max(max, { abort: true });
const email = z
  .email('must be a valid email address')
  .max(254)
  .transform((e) => e.toLowerCase());
/** Which business a KYB section is for: stored state (a customer of the caller's, a corporate one), declared for the contract. */
const userEmail = email.meta({ 'x-ramp-checks': 'the email of one of your corporate customers (unknown_customer or not_corporate otherwise)' });
const invalid = (code: string, message: string) => ({ message, params: { code }, abort: true });

// A string first, so a missing enum field reads `required` and a wrong one `invalid_enum_value`.
// The contract lists the values all the same (the pipe's input side alone would read as any string).
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .pipe(z.enum(values))
    .meta({ enum: [...values] });
const latin = (max: number) =>
  text(max).refine(isLatinText, invalid('not_latin', 'must be written in the Latin alphabet (English)')).meta({ pattern: LATIN_TEXT_PATTERN });
// Rules JSON Schema cannot state (a registry of codes, dates relative to today) are declared by working examples and
// `x-ramp-checks` in the REST contract (openapi.json), so a generated client sends values that pass.
const checked = (what: string, examples: string[]) => ({ examples, 'x-ramp-checks': what });
const alpha3 = z
  .string()
  .refine(isAlpha3Country, invalid('invalid_country', 'must be an ISO 3166-1 alpha-3 country code, e.g. ARE'))
  .meta({ pattern: '^[A-Z]{3}$', ...checked('an ISO 3166-1 alpha-3 country code', ['ARE', 'DEU', 'USA']) });
const calendarDate = z.string().refine(isCalendarDate, invalid('invalid_date', 'must be a real date written YYYY-MM-DD'));
const notAfterToday = calendarDate.refine((d) => d <= todayUtc(), invalid('date_in_future', 'must not be in the future'));

/** The field rules of each section, shared by the domain's inputs and REST's bodies. */
export const basicDetailsFields = {
  userEmail,
  companyName: text(200),
  registrationNumber: text(100).regex(/^[\p{L}\p{N}][\p{L}\p{N} ./()-]*$/u, 'may hold letters, digits, spaces and . / ( ) -'),
  country: alpha3,
  incorporatedOn: notAfterToday.meta({ format: 'date', ...checked('a real date, not in the future', ['2015-06-30', '1999-01-04']) }),
  type: oneOf(BUSINESS_TYPES),
  email,
};
export const BusinessBasicDetails = z.strictObject(basicDetailsFields);
export type BusinessBasicDetails = z.input<typeof BusinessBasicDetails>;

export const businessAddressFields = {
  userEmail,
  street: text(200),
  streetEn: latin(200),
  town: text(100),
  townEn: latin(100),
  state: latin(100),
  country: latin(100)
    .refine((name) => alpha3OfEnglishName(name) !== undefined, invalid('unknown_country', 'must be a country name in English, e.g. United Arab Emirates'))
    .meta(checked('a country name in English', ['United Arab Emirates', 'Germany', 'United States'])),
};
export const BusinessAddress = z.strictObject(businessAddressFields);
export type BusinessAddress = z.input<typeof BusinessAddress>;

export const legalRepresentativeFields = {
  userEmail,
  legalRepresentationType: oneOf(LEGAL_REPRESENTATION_TYPES),
  firstName: text(100),
  lastName: text(100),
  // A living director: born in the past, and not before 1900.
  dob: calendarDate
    .refine((d) => d < todayUtc(), invalid('date_not_in_past', 'must be in the past'))
    .refine((d) => d >= '1900-01-01', invalid('date_out_of_range', 'must be on or after 1900-01-01'))
    .meta({ format: 'date', ...checked('a real date in the past, on or after 1900-01-01', ['1980-04-12', '1992-11-03']) }),
  nationality: alpha3,
  documentNo: text(50).regex(/^[A-Za-z0-9][A-Za-z0-9 -]*$/, 'may hold letters, digits, spaces and dashes'),
  // 2099-01-01 stands for "no expiry"; an expired document proves nothing.
  documentExpirationDate: calendarDate
    .refine((d) => d >= todayUtc(), invalid('document_expired', 'the document has expired'))
    .meta({ format: 'date', ...checked('a real date, today or later (2099-01-01: no expiry)', ['2099-01-01', '2031-08-15']) }),
  issueCountry: alpha3,
  documentName: oneOf(IDENTITY_DOCUMENT_NAMES),
};
export const LegalRepresentative = z.strictObject(legalRepresentativeFields);
export type LegalRepresentative = z.input<typeof LegalRepresentative>;
