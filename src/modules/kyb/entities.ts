import { defineEntity, p } from '@mikro-orm/core';
import { BUSINESS_TYPES, IDENTITY_DOCUMENT_NAMES, LEGAL_REPRESENTATION_TYPES } from '../../domain/kyb.js';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';

/**
 * A corporate customer's KYB, one row per customer, filled section by section.
 * A section's columns are all set or all null (check constraints in the migration).
 */
const BusinessProfileSchema = defineEntity({
  name: 'BusinessProfile',
  tableName: 'business_profiles',
  filters: TENANT_FILTERS,
  properties: {
    customerId: p.uuid().primary(),
    ...tenantColumns(),
    companyName: p.text().nullable(),
    registrationNumber: p.text().nullable(),
    /** ISO 3166-1 alpha-3 country of incorporation. */
    country: p.string().length(3).nullable(),
    incorporatedOn: p.date().nullable(),
    type: p.enum(BUSINESS_TYPES).nullable(),
    email: p.text().nullable(),
    basicDetailsSubmittedAt: p.datetime().nullable(),
    street: p.text().nullable(),
    streetEn: p.text().nullable(),
    town: p.text().nullable(),
    townEn: p.text().nullable(),
    state: p.text().nullable(),
    /** The country as the partner named it in English, and its alpha-3 code. */
    countryName: p.text().nullable(),
    addressCountry: p.string().length(3).nullable(),
    addressSubmittedAt: p.datetime().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
  },
});
export class BusinessProfile extends BusinessProfileSchema.class {}
BusinessProfileSchema.setClass(BusinessProfile);

/** A director of a corporate customer, identified by the document that proves who they are. */
const LegalRepresentativeSchema = defineEntity({
  name: 'BusinessLegalRepresentative',
  tableName: 'business_legal_representatives',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    customerId: p.uuid(),
    ...tenantColumns(),
    type: p.enum(LEGAL_REPRESENTATION_TYPES),
    firstName: p.text(),
    lastName: p.text(),
    /** YYYY-MM-DD, sealed by the customer's data key (customers/data-keys.ts). */
    dob: p.text(),
    nationality: p.string().length(3),
    documentName: p.enum(IDENTITY_DOCUMENT_NAMES),
    /** Sealed by the customer's data key; never logged, shown masked (`…1234`). */
    documentNo: p.text(),
    /** Keyed digest of the document number, which the uniqueness of (country, document, number) compares. */
    documentDigest: p.text().nullable(),
    documentExpirationDate: p.date(),
    issueCountry: p.string().length(3),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
  },
});
export class BusinessLegalRepresentative extends LegalRepresentativeSchema.class {}
LegalRepresentativeSchema.setClass(BusinessLegalRepresentative);

export const kybEntities = [BusinessProfile, BusinessLegalRepresentative];
