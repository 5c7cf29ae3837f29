import { z } from 'zod';
import { Address, type PostalAddress } from '../../domain/address.js';
import { type FieldError, fieldError } from '../../domain/errors.js';
import { HTTP_URL_PATTERN, type Report, acrossFields, isOneOf, present, refusing, whenOneOf } from '../../domain/validation.js';
import { MAX_REDIRECT_URI_LENGTH, redirectUriProblem } from './kyc-links.js';

/**
 * The customers' use cases take these inputs: camelCase, in the domain's words. REST maps the
 * spec's snake_case bodies to them (rest-bodies.ts); GraphQL passes its inputs as they are.
 */
export const CUSTOMER_TYPES = ['individual', 'corporate'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

export const name = z.string().trim().min(1, 'must not be empty').max(200);
// Lower-cased so that uniqueness per partner does not depend on how the partner spells it.
export const email = z
  .email('must be a valid email address')
  .max(254)
  .transform((e) => e.toLowerCase());

/** The address as the spec stores and shows it (snake_case jsonb, see records.ts). */
export type CustomerAddress = PostalAddress;

export { Address };

export const idDocumentNumber = z.string().trim().min(1).max(100);
export const issuingCountry = z.string().regex(/^[A-Z]{2,3}$/, 'must be an ISO 3166-1 country code');
export const taxNumber = z.string().trim().min(1).max(100);
export const providerShareKycToken = z
  .string()
  .min(1)
  .max(4096)
  .meta({
    description: "The KYC provider's share token; the sandbox's are approve_<applicant>, reject_<applicant> and review_<applicant>",
    examples: ['approve_ada-lovelace'],
    'x-ramp-checks': 'redeemed with the KYC provider',
  });
export const MAX_DOCUMENTS = 50;
export const documentFields = { fileId: z.string().min(1).max(200), purpose: z.string().min(1).max(100), description: z.string().max(500).optional() };

/** How one face spells the three names (the rules below are the domain's, whatever the spelling). */
export interface NameFields {
  firstName: string;
  lastName: string;
  companyName: string;
}
const DOMAIN_NAMES: NameFields = { firstName: 'firstName', lastName: 'lastName', companyName: 'companyName' };

/** Individuals need a first and last name, corporates a company name: checked whatever else failed. */
export const namesRequired = (names: NameFields = DOMAIN_NAMES) =>
  acrossFields(
    (body, report: Report) => {
      if (!isOneOf(CUSTOMER_TYPES, body.type)) return;
      const required = body.type === 'individual' ? [names.firstName, names.lastName] : [names.companyName];
      for (const field of required) if (body[field] === undefined) report(field, 'required', `is required for ${body.type} customers`);
    },
    () => ({
      allOf: [whenOneOf('type', ['individual'], present([names.firstName, names.lastName])), whenOneOf('type', ['corporate'], present([names.companyName]))],
    }),
  );

/** Names that belong to the other type of customer, among those `changes` sets (as sent). */
export function namesNotAllowed(type: CustomerType, changes: Partial<Record<keyof NameFields, unknown>>): FieldError[] {
  const foreign = type === 'individual' ? ['companyName'] : ['firstName', 'lastName'];
  return foreign
    .filter((f) => (changes as Record<string, unknown>)[f] !== undefined)
    .map((f) => fieldError(`/${f}`, 'not_allowed', `is not allowed for ${type} customers`));
}

export const NewCustomer = z
  .strictObject({
    email,
    type: z.enum(CUSTOMER_TYPES),
    firstName: name.optional(),
    lastName: name.optional(),
    companyName: name.optional(),
    address: Address.optional(),
  })
  .check(namesRequired());
export type NewCustomer = z.input<typeof NewCustomer>;

/**
 * What an update may change. Names go with the customer's type (checked against the stored
 * one); KYC data (provider token, identity document, tax number, documents) starts a verification.
 */
export const CustomerChanges = z.strictObject({
  email: email.optional(),
  firstName: name.optional(),
  lastName: name.optional(),
  companyName: name.optional(),
  address: Address.optional(),
  providerShareKycToken: providerShareKycToken.optional(),
  idDocument: z.strictObject({ number: idDocumentNumber, issuingCountry }).optional(),
  taxNumber: taxNumber.optional(),
  documents: z.array(z.strictObject(documentFields)).max(MAX_DOCUMENTS).optional(),
});
export type CustomerChanges = z.input<typeof CustomerChanges>;

export const CustomerFilter = z.strictObject({
  email: email.optional(),
  type: z.enum(CUSTOMER_TYPES).optional(),
  kycStatus: z.string().optional(),
});
export type CustomerFilter = z.input<typeof CustomerFilter>;

/** Where the hosted KYC flow returns the applicant (rules and length: kyc-links.ts; http to this machine is checked per environment). */
export const redirectUri = z
  .string()
  .superRefine(refusing(redirectUriProblem))
  .meta({
    format: 'uri',
    pattern: HTTP_URL_PATTERN.replace('https?', 'https'),
    maxLength: MAX_REDIRECT_URI_LENGTH,
    examples: ['https://partner.example.com/kyc/done'],
  });

/** A new KYC link for a customer: the hosted flow, optionally returning to the partner's page. */
export const NewKycLink = z.strictObject({ redirectUri: redirectUri.optional() });
export type NewKycLink = z.input<typeof NewKycLink>;
