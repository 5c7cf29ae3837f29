import type { InferKyselyDB } from '@mikro-orm/sql';
import { defineEntity, p } from '@mikro-orm/core';
import { ENVIRONMENTS } from '../../domain/environment.js';
import type { KycRailStatus } from '../../domain/kyc.js';
import type { RecordedAddress } from '../../domain/address.js';
import { CUSTOMER_TYPES } from './inputs.js';
import type { StoredProfile } from './records.js';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';

const CustomerSchema = defineEntity({
  name: 'Customer',
  tableName: 'customers',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    type: p.enum(CUSTOMER_TYPES),
    /**
     * The personal values below as one JSON sealed by the customer's data key (personal-data.ts); `[redacted]` markers
     * in clear once erased, when the key is gone. Nothing else of them is stored.
     */
    personal: p.text(),
    /** The email's keyed digest under the tenant's digest key: what uniqueness and lookups compare; null once erased. */
    emailDigest: p.text().nullable(),
    // Opened from `personal` when a customer is read (personal-data.ts), sealed into it when one is written.
    email: p.text().persist(false),
    firstName: p.text().nullable().persist(false),
    lastName: p.text().nullable().persist(false),
    companyName: p.text().nullable().persist(false),
    /** As the spec writes it; without a postal code when it came from the KYB business address. */
    address: p.json<RecordedAddress>().nullable().persist(false),
    kycStatusBreakdown: p.json<KycRailStatus[]>(),
    kycSubStatus: p.text().nullable(),
    /** Secret part of the sandbox KYC page link: the link alone lets a tester act on this customer. */
    kycPageToken: p.text(),
    /** Where the sandbox KYC page returns the applicant after a decision: the newest link's `redirect_uri`. */
    kycRedirectUri: p.text().nullable(),
    /** KYC data: provider token, identity document, tax number, documents (shape: records.ts). */
    profile: p.json<StoredProfile>(),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
    /** When the customer's personal data was erased (its ids, transfers and ledger stay); null while it is kept. */
    redactedAt: p.datetime().nullable(),
  },
});
export class Customer extends CustomerSchema.class {}
CustomerSchema.setClass(Customer);

/**
 * The key that seals a customer's personal values, document and tax numbers (32 random bytes), wrapped by the master
 * key. Erasure deletes the row: what it sealed, in this database or any copy of it, stays unreadable.
 */
const CustomerDataKeySchema = defineEntity({
  name: 'CustomerDataKey',
  tableName: 'customer_data_keys',
  filters: TENANT_FILTERS,
  properties: {
    customerId: p.uuid().primary(),
    ...tenantColumns(),
    /** The fingerprint of the master key that wrapped it (platform/security/sealing.ts). */
    masterKeyId: p.text(),
    wrappedKey: p.text(),
    createdAt: createdAtColumn(),
  },
});
export class CustomerDataKey extends CustomerDataKeySchema.class {}
CustomerDataKeySchema.setClass(CustomerDataKey);

/**
 * The key of a tenant's email digests (32 random bytes), wrapped by the master key: shared by the tenant's customers,
 * since a uniqueness check compares two of them, and kept through erasure (a digest alone names no one).
 */
const EmailDigestKeySchema = defineEntity({
  name: 'EmailDigestKey',
  tableName: 'email_digest_keys',
  properties: {
    partnerId: p.uuid().primary(),
    environment: p.enum(ENVIRONMENTS).primary(),
    masterKeyId: p.text(),
    wrappedKey: p.text(),
    createdAt: createdAtColumn(),
  },
});
export class EmailDigestKey extends EmailDigestKeySchema.class {}
EmailDigestKeySchema.setClass(EmailDigestKey);

export const customerEntities = [Customer, CustomerDataKey, EmailDigestKey];

/** The tables above as the module's query file reads them (platform/reads/queries.ts): SQL names, the entities' value types. */
export type CustomerTables = InferKyselyDB<typeof CustomerSchema>;
