import { BUSINESS_TYPES, BUSINESS_PROFILE_SECTIONS, IDENTITY_DOCUMENT_NAMES } from '../../domain/kyb.js';
import { withoutNulls } from '../../graphql/arguments.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { MUTATION_ERRORS, withInputPaths } from '../../graphql/errors.js';
import { CustomerRef } from '../customers/graphql.js';
import type { BusinessProfileView } from './presenters.js';

const BusinessTypeEnum = builder.enumType('BusinessType', { values: BUSINESS_TYPES });
const IdentityDocumentNameEnum = builder.enumType('IdentityDocumentName', { values: IDENTITY_DOCUMENT_NAMES });

const BasicDetailsRef = builder.objectRef<NonNullable<BusinessProfileView['basicDetails']>>('BusinessBasicDetails').implement({
  fields: (t) => ({
    companyName: t.exposeString('companyName'),
    registrationNumber: t.exposeString('registrationNumber'),
    country: t.exposeString('country', { description: 'ISO 3166-1 alpha-3 country of incorporation' }),
    incorporatedOn: t.exposeString('incorporatedOn', { description: 'YYYY-MM-DD' }),
    type: t.field({ type: BusinessTypeEnum, resolve: (d) => d.type as (typeof BUSINESS_TYPES)[number] }),
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
    id: t.exposeID('id'),
    legalRepresentationType: t.exposeString('legalRepresentationType'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    dob: t.exposeString('dob', { description: 'YYYY-MM-DD' }),
    nationality: t.exposeString('nationality', { description: 'ISO 3166-1 alpha-3' }),
    documentName: t.field({ type: IdentityDocumentNameEnum, resolve: (r) => r.documentName as (typeof IDENTITY_DOCUMENT_NAMES)[number] }),
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
    missingSections: t.exposeStringList('missingSections', { description: `Among ${BUSINESS_PROFILE_SECTIONS.join(', ')}` }),
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

const BasicDetailsInputRef = builder.inputType('BusinessBasicDetailsInput', {
  fields: (t) => ({
    userEmail: t.string({ required: true }),
    companyName: t.string({ required: true }),
    registrationNumber: t.string({ required: true }),
    country: t.string({ required: true, description: 'ISO 3166-1 alpha-3' }),
    incorporatedOn: t.string({ required: true, description: 'YYYY-MM-DD' }),
    type: t.field({ type: BusinessTypeEnum, required: true }),
    email: t.string({ required: true }),
  }),
});

const AddressInputRef = builder.inputType('BusinessAddressInput', {
  fields: (t) => ({
    userEmail: t.string({ required: true }),
    street: t.string({ required: true }),
    streetEn: t.string({ required: true }),
    town: t.string({ required: true }),
    townEn: t.string({ required: true }),
    state: t.string({ required: true }),
    country: t.string({ required: true, description: 'Country name in English' }),
  }),
});

const LegalRepresentativeInputRef = builder.inputType('BusinessLegalRepresentativeInput', {
  fields: (t) => ({
    userEmail: t.string({ required: true }),
    legalRepresentationType: t.string({ required: true, description: 'director' }),
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

builder.mutationFields((t) => ({
  submitBusinessBasicDetails: t.field({
    type: BusinessProfileRef,
    errors: { types: MUTATION_ERRORS },
    args: { input: t.arg({ type: BasicDetailsInputRef, required: true }) },
    resolve: (_, { input }, ctx) => withInputPaths(ctx.services.kyb.submitBasicDetails(scopeOf(ctx), withoutNulls(input))),
  }),
  submitBusinessAddress: t.field({
    type: BusinessProfileRef,
    errors: { types: MUTATION_ERRORS },
    args: { input: t.arg({ type: AddressInputRef, required: true }) },
    resolve: (_, { input }, ctx) => withInputPaths(ctx.services.kyb.submitAddress(scopeOf(ctx), withoutNulls(input))),
  }),
  submitBusinessLegalRepresentative: t.field({
    type: BusinessProfileRef,
    description: 'Adds a director, or updates the one with the same identity document.',
    errors: { types: MUTATION_ERRORS },
    args: { input: t.arg({ type: LegalRepresentativeInputRef, required: true }) },
    resolve: (_, { input }, ctx) => withInputPaths(ctx.services.kyb.submitLegalRepresentative(scopeOf(ctx), withoutNulls(input))),
  }),
}));
