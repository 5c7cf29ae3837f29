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
import { withoutNulls } from '../../graphql/arguments.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum } from '../../graphql/enums.js';
import { withInputPaths } from '../../graphql/errors.js';
import { payloadOf } from '../../graphql/payload.js';
import { CustomerRef } from '../customers/graphql.js';
import type { BusinessProfileView } from './presenters.js';

const BusinessTypeEnum = domainEnum('BusinessType', BUSINESS_TYPES);
const IdentityDocumentNameEnum = domainEnum('IdentityDocumentName', IDENTITY_DOCUMENT_NAMES, {
  description: "The kind of identity document a legal representative's identity rests on",
});
const LegalRepresentationTypeEnum = domainEnum('LegalRepresentationType', LEGAL_REPRESENTATION_TYPES);
const BusinessProfileSectionEnum = domainEnum('BusinessProfileSection', BUSINESS_PROFILE_SECTIONS, {
  description: 'A section of a business profile, each submitted by its own mutation',
});

const BasicDetailsRef = builder.objectRef<NonNullable<BusinessProfileView['basicDetails']>>('BusinessBasicDetails').implement({
  fields: (t) => ({
    companyName: t.exposeString('companyName'),
    registrationNumber: t.exposeString('registrationNumber'),
    country: t.exposeString('country', { description: 'ISO 3166-1 alpha-3 country of incorporation' }),
    incorporatedOn: t.exposeString('incorporatedOn', { description: 'YYYY-MM-DD' }),
    type: t.field({ type: BusinessTypeEnum, resolve: (d) => d.type as BusinessType }),
    email: t.exposeString('email'),
  }),
});

const BusinessAddressRef = builder.objectRef<NonNullable<BusinessProfileView['address']>>('BusinessAddress').implement({
  fields: (t) => ({
    street: t.exposeString('street', { description: 'Local language and script' }),
    streetEn: t.exposeString('streetEn'),
    town: t.exposeString('town', { description: 'Local language and script' }),
    townEn: t.exposeString('townEn'),
    state: t.exposeString('state'),
    country: t.exposeString('country', { description: 'Country name in English, as submitted' }),
    countryCode: t.exposeString('countryCode', { description: 'ISO 3166-1 alpha-3' }),
  }),
});

const LegalRepresentativeRef = builder.objectRef<BusinessProfileView['legalRepresentatives'][number]>('BusinessLegalRepresentative').implement({
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id REST shows for this representative' }),
    legalRepresentationType: t.field({ type: LegalRepresentationTypeEnum, resolve: (r) => r.legalRepresentationType as LegalRepresentationType }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    dob: t.exposeString('dob', { description: 'YYYY-MM-DD' }),
    nationality: t.exposeString('nationality', { description: 'ISO 3166-1 alpha-3' }),
    documentName: t.field({ type: IdentityDocumentNameEnum, resolve: (r) => r.documentName as IdentityDocumentName }),
    documentNo: t.exposeString('documentNo', { description: 'Masked: only the last characters are shown' }),
    documentExpirationDate: t.exposeString('documentExpirationDate', { description: 'YYYY-MM-DD; 2099-01-01 means no expiry' }),
    issueCountry: t.exposeString('issueCountry', { description: 'ISO 3166-1 alpha-3' }),
  }),
});

export const BusinessProfileRef = builder.objectRef<BusinessProfileView>('BusinessProfile').implement({
  description: "A corporate customer's KYB, imported section by section (REST: /v1/partners/kyc/business/...).",
  fields: (t) => ({
    customer: t.field({ type: CustomerRef, resolve: (p) => p.customerId }),
    basicDetails: t.field({ type: BasicDetailsRef, nullable: true, resolve: (p) => p.basicDetails }),
    address: t.field({ type: BusinessAddressRef, nullable: true, resolve: (p) => p.address }),
    legalRepresentatives: t.field({ type: [LegalRepresentativeRef], resolve: (p) => p.legalRepresentatives }),
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
  fields: (t) => ({
    userEmail: t.string({ required: true, description: USER_EMAIL }),
    companyName: t.string({ required: true }),
    registrationNumber: t.string({ required: true }),
    country: t.string({ required: true, description: 'ISO 3166-1 alpha-3' }),
    incorporatedOn: t.string({ required: true, description: 'YYYY-MM-DD' }),
    type: t.field({ type: BusinessTypeEnum, required: true }),
    email: t.string({ required: true }),
  }),
});

const AddressInputRef = builder.inputType('SubmitBusinessAddressInput', {
  fields: (t) => ({
    userEmail: t.string({ required: true, description: USER_EMAIL }),
    street: t.string({ required: true }),
    streetEn: t.string({ required: true }),
    town: t.string({ required: true }),
    townEn: t.string({ required: true }),
    state: t.string({ required: true }),
    country: t.string({ required: true, description: 'Country name in English' }),
  }),
});

const LegalRepresentativeInputRef = builder.inputType('SubmitBusinessLegalRepresentativeInput', {
  fields: (t) => ({
    userEmail: t.string({ required: true, description: USER_EMAIL }),
    legalRepresentationType: t.field({ type: LegalRepresentationTypeEnum, required: true }),
    firstName: t.string({ required: true }),
    lastName: t.string({ required: true }),
    dob: t.string({ required: true, description: 'YYYY-MM-DD, in the past' }),
    nationality: t.string({ required: true, description: 'ISO 3166-1 alpha-3' }),
    documentNo: t.string({ required: true }),
    documentExpirationDate: t.string({ required: true, description: 'YYYY-MM-DD; 2099-01-01 when the document has no expiry' }),
    issueCountry: t.string({ required: true, description: 'ISO 3166-1 alpha-3' }),
    documentName: t.field({ type: IdentityDocumentNameEnum, required: true }),
  }),
});

const UPSERT = 'Takes no idempotencyKey: the section replaces what was submitted before, so a retry is harmless.';
const REVIEW = "A profile complete afterwards sends the customer's KYC to review (unless already IN_REVIEW or APPROVED).";
const errors = (verbNoun: string) => payloadOf(verbNoun, 'businessProfile', [ValidationError]);

builder.mutationFields((t) => ({
  submitBusinessBasicDetails: t.field({
    type: BusinessProfileRef,
    description: `Saves a corporate customer's basic details (REST: POST /v1/partners/kyc/business/basic-details). ${REVIEW} ${UPSERT}`,
    errors: errors('SubmitBusinessBasicDetails'),
    args: {
      input: t.arg({ type: BasicDetailsInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) => withInputPaths(ctx.services.kyb.submitBasicDetails(scopeOf(ctx), withoutNulls(input))),
  }),
  submitBusinessAddress: t.field({
    type: BusinessProfileRef,
    description: `Saves a corporate customer's registered address (REST: POST /v1/partners/kyc/business/address); it becomes the customer's address when it has none. ${REVIEW} ${UPSERT}`,
    errors: errors('SubmitBusinessAddress'),
    args: { input: t.arg({ type: AddressInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }) },
    resolve: (_, { input }, ctx) => withInputPaths(ctx.services.kyb.submitAddress(scopeOf(ctx), withoutNulls(input))),
  }),
  submitBusinessLegalRepresentative: t.field({
    type: BusinessProfileRef,
    description: `Adds a director, or updates the one with the same identity document (REST: POST /v1/partners/kyc/business/legalRepresentation). ${REVIEW} ${UPSERT}`,
    errors: errors('SubmitBusinessLegalRepresentative'),
    args: {
      input: t.arg({ type: LegalRepresentativeInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }),
    },
    resolve: (_, { input }, ctx) => withInputPaths(ctx.services.kyb.submitLegalRepresentative(scopeOf(ctx), withoutNulls(input))),
  }),
}));
