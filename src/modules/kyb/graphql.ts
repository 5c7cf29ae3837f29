import { ValidationError } from '../../domain/errors.js';
import {
  BUSINESS_PROFILE_SECTIONS,
  BUSINESS_TYPES,
  type BusinessProfileSection,
  type BusinessType,
  IDENTITY_DOCUMENT_NAMES,
  type IdentityDocumentName,
  LEGAL_REPRESENTATION_TYPES,
  type LegalRepresentationType,
} from '../../domain/kyb.js';
import { withoutNulls } from '../../graphql/types/arguments.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum } from '../../graphql/types/enums.js';
import { withInputPaths } from '../../graphql/types/errors.js';
import { payloadOf } from '../../graphql/types/payload.js';
import { CustomerRef } from '../customers/graphql.js';
import type { BusinessProfileView } from './presenters.js';

const BusinessTypeEnum = domainEnum('BusinessType', BUSINESS_TYPES, {
  description: "A business's legal form (REST spells it in camelCase: LIMITED_LIABILITY_COMPANY is limitedLiabilityCompany)",
  describe: {
    limitedLiabilityCompany: 'A limited liability company (LLC, Ltd, GmbH …)',
    soleProprietor: 'A sole proprietorship: one person trading in their own name',
    corporation: 'A corporation',
    partnership: 'A partnership',
    publiclyListedCompany: 'A company listed on a stock exchange',
    trust: 'A trust',
  },
});
const IdentityDocumentNameEnum = domainEnum('IdentityDocumentName', IDENTITY_DOCUMENT_NAMES, {
  description: "The kind of identity document a legal representative's identity rests on",
  describe: { PASSPORT: 'A passport', ID_CARD: 'A national identity card', DRIVERS: "A driver's licence", RESIDENCE: 'A residence permit' },
});
const LegalRepresentationTypeEnum = domainEnum('LegalRepresentationType', LEGAL_REPRESENTATION_TYPES, {
  description: 'The role a legal representative holds in the business',
  describe: { director: 'A director of the company' },
});
const BusinessProfileSectionEnum = domainEnum('BusinessProfileSection', BUSINESS_PROFILE_SECTIONS, {
  description: 'A section of a business profile, each submitted by its own mutation',
  describe: {
    basicDetails: 'Company name, registration, country, incorporation date, legal form, email (submitBusinessBasicDetails)',
    address: 'The registered address (submitBusinessAddress)',
    legalRepresentation: 'At least one director (submitBusinessLegalRepresentative)',
  },
});

const BasicDetailsRef = builder.objectRef<NonNullable<BusinessProfileView['basicDetails']>>('BusinessBasicDetails').implement({
  description: "A business profile's basic details, as submitted",
  fields: (t) => ({
    companyName: t.exposeString('companyName', { description: "The company's registered name" }),
    registrationNumber: t.exposeString('registrationNumber', { description: "The company's registration number in its country" }),
    country: t.exposeString('country', { description: 'ISO 3166-1 alpha-3 country of incorporation' }),
    incorporatedOn: t.exposeString('incorporatedOn', { description: 'YYYY-MM-DD' }),
    type: t.field({ type: BusinessTypeEnum, description: "The company's legal form", resolve: (d) => d.type as BusinessType }),
    email: t.exposeString('email', { description: "The company's contact email" }),
  }),
});

const BusinessAddressRef = builder.objectRef<NonNullable<BusinessProfileView['address']>>('BusinessAddress').implement({
  description: "A business profile's registered address, in the local script and in English (no postal code)",
  fields: (t) => ({
    street: t.exposeString('street', { description: 'Local language and script' }),
    streetEn: t.exposeString('streetEn', { description: 'The street in English (Latin alphabet)' }),
    town: t.exposeString('town', { description: 'Local language and script' }),
    townEn: t.exposeString('townEn', { description: 'The town in English (Latin alphabet)' }),
    state: t.exposeString('state', { description: 'The state, province or emirate (Latin alphabet)' }),
    country: t.exposeString('country', { description: 'Country name in English, as submitted' }),
    countryCode: t.exposeString('countryCode', { description: 'ISO 3166-1 alpha-3' }),
  }),
});

const LegalRepresentativeRef = builder.objectRef<BusinessProfileView['legalRepresentatives'][number]>('BusinessLegalRepresentative').implement({
  description: 'A director of a corporate customer, as submitted (the document number masked)',
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this representative' }),
    legalRepresentationType: t.field({
      type: LegalRepresentationTypeEnum,
      description: 'The role held',
      resolve: (r) => r.legalRepresentationType as LegalRepresentationType,
    }),
    firstName: t.exposeString('firstName', { description: 'First name' }),
    lastName: t.exposeString('lastName', { description: 'Last name' }),
    dob: t.exposeString('dob', { description: 'YYYY-MM-DD' }),
    nationality: t.exposeString('nationality', { description: 'ISO 3166-1 alpha-3' }),
    documentName: t.field({
      type: IdentityDocumentNameEnum,
      description: 'The kind of identity document',
      resolve: (r) => r.documentName as IdentityDocumentName,
    }),
    documentNo: t.exposeString('documentNo', { description: 'Masked: only the last characters are shown' }),
    documentExpirationDate: t.exposeString('documentExpirationDate', { description: 'YYYY-MM-DD; 2099-01-01 means no expiry' }),
    issueCountry: t.exposeString('issueCountry', { description: 'ISO 3166-1 alpha-3' }),
  }),
});

export const BusinessProfileRef = builder.objectRef<BusinessProfileView>('BusinessProfile').implement({
  description: "A corporate customer's KYB, imported section by section (REST: /v1/partners/kyc/business/...).",
  fields: (t) => ({
    customer: t.field({ type: CustomerRef, description: 'The corporate customer the profile belongs to', resolve: (p) => p.customerId }),
    basicDetails: t.field({ type: BasicDetailsRef, nullable: true, description: 'Null until submitted', resolve: (p) => p.basicDetails }),
    address: t.field({ type: BusinessAddressRef, nullable: true, description: 'Null until submitted', resolve: (p) => p.address }),
    legalRepresentatives: t.field({
      type: [LegalRepresentativeRef],
      description: 'The directors submitted so far (empty until one is)',
      resolve: (p) => p.legalRepresentatives,
    }),
    complete: t.exposeBoolean('complete', { description: 'Every section is there; a complete profile sends the KYC to review' }),
    missingSections: t.field({
      type: [BusinessProfileSectionEnum],
      description: 'The sections still to submit, in the order of the mutations',
      resolve: (p) => p.missingSections as BusinessProfileSection[],
    }),
  }),
});

builder.objectFields(CustomerRef, (t) => ({
  businessProfile: t.loadable({
    type: BusinessProfileRef,
    nullable: true,
    description: 'KYB of a corporate customer (null for individuals).',
    load: (ids: string[], ctx) => ctx.services.kyb.profilesOf(scopeOf(ctx), ids),
    resolve: (customer) => (customer.type === 'corporate' ? customer.id : null),
  }),
}));

const USER_EMAIL = 'The email of the corporate customer (of the caller, in this environment) the section is for';

const BasicDetailsInputRef = builder.inputType('SubmitBusinessBasicDetailsInput', {
  description: "A corporate customer's basic details (REST: POST /v1/partners/kyc/business/basic-details)",
  fields: (t) => ({
    userEmail: t.string({ required: true, description: USER_EMAIL }),
    companyName: t.string({ required: true, description: "The company's registered name" }),
    registrationNumber: t.string({ required: true, description: 'Letters, digits, spaces and . / ( ) -' }),
    country: t.string({ required: true, description: 'Country of incorporation, ISO 3166-1 alpha-3 in upper case, e.g. ARE' }),
    incorporatedOn: t.string({ required: true, description: 'YYYY-MM-DD, not in the future' }),
    type: t.field({ type: BusinessTypeEnum, required: true, description: "The company's legal form" }),
    email: t.string({ required: true, description: "The company's contact email" }),
  }),
});

const AddressInputRef = builder.inputType('SubmitBusinessAddressInput', {
  description: "A corporate customer's registered address (REST: POST /v1/partners/kyc/business/address)",
  fields: (t) => ({
    userEmail: t.string({ required: true, description: USER_EMAIL }),
    street: t.string({ required: true, description: 'The street, in the local language and script' }),
    streetEn: t.string({ required: true, description: 'The street in English (Latin alphabet)' }),
    town: t.string({ required: true, description: 'The town, in the local language and script' }),
    townEn: t.string({ required: true, description: 'The town in English (Latin alphabet)' }),
    state: t.string({ required: true, description: 'The state, province or emirate (Latin alphabet)' }),
    country: t.string({ required: true, description: 'Country name in English, e.g. "United Arab Emirates" (its alpha-3 is stored as countryCode)' }),
  }),
});

const LegalRepresentativeInputRef = builder.inputType('SubmitBusinessLegalRepresentativeInput', {
  description: 'A director of a corporate customer (REST: POST /v1/partners/kyc/business/legalRepresentation)',
  fields: (t) => ({
    userEmail: t.string({ required: true, description: USER_EMAIL }),
    legalRepresentationType: t.field({ type: LegalRepresentationTypeEnum, required: true, description: 'The role held' }),
    firstName: t.string({ required: true, description: 'First name' }),
    lastName: t.string({ required: true, description: 'Last name' }),
    dob: t.string({ required: true, description: 'YYYY-MM-DD, in the past' }),
    nationality: t.string({ required: true, description: 'ISO 3166-1 alpha-3' }),
    documentNo: t.string({ required: true, description: "The identity document's number: letters, digits, spaces and dashes, at most 50" }),
    documentExpirationDate: t.string({ required: true, description: 'YYYY-MM-DD; 2099-01-01 when the document has no expiry' }),
    issueCountry: t.string({ required: true, description: 'ISO 3166-1 alpha-3' }),
    documentName: t.field({ type: IdentityDocumentNameEnum, required: true, description: 'The kind of identity document' }),
  }),
});

const UPSERT = 'Takes no idempotencyKey: the section replaces what was submitted before, so a retry is harmless.';
const REVIEW = "A profile complete afterwards sends the customer's KYC to review (unless already IN_REVIEW or APPROVED).";
const errors = (verbNoun: string) => payloadOf(verbNoun, 'businessProfile', [ValidationError]);

builder.mutationFields((t) => ({
  submitBusinessBasicDetails: t.field({
    keyScope: 'write',
    type: BusinessProfileRef,
    description: `Saves a corporate customer's basic details (REST: POST /v1/partners/kyc/business/basic-details). ${REVIEW} ${UPSERT}`,
    errors: errors('SubmitBusinessBasicDetails'),
    args: {
      input: t.arg({ type: BasicDetailsInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) => withInputPaths(ctx.services.kyb.submitBasicDetails(scopeOf(ctx), withoutNulls(input))),
  }),
  submitBusinessAddress: t.field({
    keyScope: 'write',
    type: BusinessProfileRef,
    description: `Saves a corporate customer's registered address (REST: POST /v1/partners/kyc/business/address); it becomes the customer's address when it has none. ${REVIEW} ${UPSERT}`,
    errors: errors('SubmitBusinessAddress'),
    args: { input: t.arg({ type: AddressInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }) },
    resolve: (_, { input }, ctx) => withInputPaths(ctx.services.kyb.submitAddress(scopeOf(ctx), withoutNulls(input))),
  }),
  submitBusinessLegalRepresentative: t.field({
    keyScope: 'write',
    type: BusinessProfileRef,
    description: `Adds a director, or updates the one with the same identity document (REST: POST /v1/partners/kyc/business/legalRepresentation). ${REVIEW} ${UPSERT}`,
    errors: errors('SubmitBusinessLegalRepresentative'),
    args: {
      input: t.arg({ type: LegalRepresentativeInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) => withInputPaths(ctx.services.kyb.submitLegalRepresentative(scopeOf(ctx), withoutNulls(input))),
  }),
}));
