import { z } from 'zod';
import { PostalAddressInput } from '../../domain/address.js';
import { KYC_STATUSES, KYC_SUB_STATUSES } from '../../domain/kyc.js';
import { named, timestampAnswer, uuidAnswer } from '../../rest/openapi/schemas.js';
import { OffsetPageQuery } from '../../platform/reads/pagination.js';
import {
  type Address,
  CUSTOMER_TYPES,
  type CustomerChanges,
  MAX_DOCUMENTS,
  type NewCustomer,
  type NewKycLink,
  documentFields,
  email,
  idDocumentNumber,
  issuingCountry,
  name,
  namesRequired,
  providerShareKycToken,
  redirectUri,
  taxNumber,
} from './inputs.js';

/**
 * The REST customer bodies, snake_case, with the domain's field rules, and their
 * mapping to the use cases' inputs. Domain pointers come back through CUSTOMER_POINTERS.
 */
const REST_NAMES = { firstName: 'first_name', lastName: 'last_name', companyName: 'company_name' };

/** Where the body nests what the domain keeps flat (every other field is the domain's, snake-cased). */
export const CUSTOMER_POINTERS = {
  '/providerShareKycToken': '/external_kyc_provider_data/provider_share_kyc_token',
  '/idDocument': '/identifying_information/id_document',
  '/taxNumber': '/identifying_information/tax_number',
};

export const NewCustomerBody = z
  .strictObject({
    email,
    type: z.enum(CUSTOMER_TYPES),
    first_name: name.optional(),
    last_name: name.optional(),
    company_name: name.optional(),
    address: PostalAddressInput.optional(),
  })
  .check(namesRequired(REST_NAMES));

/**
 * PUT body: an IndividualCustomer or a BusinessCustomer. The spec does not say which holds what;
 * both accept the KYC data (provider token, identifying information, documents), the address and
 * email; names go with the customer's type and are checked against it by the use case.
 */
const ofType = (type: string) => ({ 'x-ramp-checks': `only for ${type} customers: the stored customer's type (not_allowed otherwise)` });
export const CustomerChangesBody = z.strictObject({
  email: email.optional(),
  first_name: name.optional().meta(ofType('individual')),
  last_name: name.optional().meta(ofType('individual')),
  company_name: name.optional().meta(ofType('corporate')),
  address: PostalAddressInput.optional(),
  external_kyc_provider_data: z.strictObject({ provider_share_kyc_token: providerShareKycToken }).optional(),
  identifying_information: z
    .strictObject({
      id_document: z.strictObject({ number: idDocumentNumber, issuing_country: issuingCountry }).optional(),
      tax_number: taxNumber.optional(),
    })
    .optional(),
  documents: z
    .array(z.strictObject({ file_id: documentFields.fileId, purpose: documentFields.purpose, description: documentFields.description }))
    .max(MAX_DOCUMENTS)
    .optional(),
});

type AddressBody = z.infer<typeof PostalAddressInput>;
const addressOf = (a: AddressBody): Address => ({
  country: a.country,
  city: a.city,
  streetLine1: a.street_line_1,
  postalCode: a.postal_code,
  state: a.state,
});

export const newCustomerOf = (body: z.infer<typeof NewCustomerBody>): NewCustomer => ({
  email: body.email,
  type: body.type,
  firstName: body.first_name,
  lastName: body.last_name,
  companyName: body.company_name,
  address: body.address && addressOf(body.address),
});

export function customerChangesOf(body: z.infer<typeof CustomerChangesBody>): CustomerChanges {
  const identity = body.identifying_information;
  const document = identity?.id_document;
  return {
    email: body.email,
    firstName: body.first_name,
    lastName: body.last_name,
    companyName: body.company_name,
    address: body.address && addressOf(body.address),
    providerShareKycToken: body.external_kyc_provider_data?.provider_share_kyc_token,
    idDocument: document && { number: document.number, issuingCountry: document.issuing_country },
    taxNumber: identity?.tax_number,
    documents: body.documents?.map((d) => ({ fileId: d.file_id, purpose: d.purpose, description: d.description })),
  };
}

/** The names a PUT body sets, as sent (valid or not), for the use case's check against the stored type. */
export function namesIn(body: unknown): Partial<Record<keyof typeof REST_NAMES, unknown>> {
  if (typeof body !== 'object' || body === null) return {};
  const sent = body as Record<string, unknown>;
  return { firstName: sent.first_name, lastName: sent.last_name, companyName: sent.company_name };
}

/** POST /v0/customers/{id}/kycs: Align's body, an optional `redirect_uri`; no body at all is the same as `{}`. */
export const NewKycLinkBody = z.strictObject({ redirect_uri: redirectUri.optional() });

export const newKycLinkOf = (body: z.infer<typeof NewKycLinkBody>): NewKycLink => ({ redirectUri: body.redirect_uri });

/**
 * Sandbox REST extension `POST /v0/customers/{id}/kycs/simulate`: the steps of the hosted KYC page
 * (and of GraphQL's simulateKycSubmission and simulateKycDecision), named by action.
 */
export const KYC_SIMULATE_ACTIONS = ['submit_kyc', 'approve_kyc', 'reject_kyc'] as const;
export const SimulateKycBody = z.strictObject({ action: z.enum(KYC_SIMULATE_ACTIONS) });

// ——— Answers (the OpenAPI document's response schemas; presenters.ts builds them) ———

const RecordedAddressBody = z.strictObject({
  country: z.string(),
  city: z.string(),
  street_line_1: z.string(),
  postal_code: z.string().optional(),
  state: z.string().optional(),
});

export const KycsAnswer = named(
  'Kycs',
  z.strictObject({
    status: z.enum(KYC_STATUSES),
    status_breakdown: z.array(z.strictObject({ currency: z.string(), payment_rails: z.string(), status: z.enum(KYC_STATUSES) })),
    sub_status: z.enum(KYC_SUB_STATUSES).nullable(),
    kyc_flow_link: z.url().nullable().meta({ description: 'The hosted verification page (sandbox); null in production' }),
  }),
);

/** The partner API's customer object, as every read answers it. */
export const CustomerAnswer = named(
  'Customer',
  z.strictObject({
    customer_id: uuidAnswer(),
    email: z.string(),
    type: z.enum(CUSTOMER_TYPES),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    company_name: z.string().nullable(),
    address: RecordedAddressBody.nullable(),
    kycs: KycsAnswer,
    created_at: timestampAnswer(),
    updated_at: timestampAnswer(),
    redacted_at: timestampAnswer()
      .optional()
      .meta({ description: "Present once the customer's personal data was erased (POST /v0/customers/{customer_id}/redact); its names read `[redacted]`" }),
  }),
);

/** The 201 of POST /v0/customers: exactly the spec's fields. */
export const CreatedCustomerAnswer = named(
  'CreatedCustomer',
  z.strictObject({
    customer_id: uuidAnswer(),
    email: z.string(),
    company_name: z.string().nullable(),
    type: z.enum(CUSTOMER_TYPES),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
  }),
);

/** `GET /v0/customers`: a page by `limit`/`skip`, optionally of the customer with one email. */
export const CustomerListQuery = OffsetPageQuery.extend({ email: email.optional() });
