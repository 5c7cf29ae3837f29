import type { InferKyselyDB } from '@mikro-orm/sql';
import { defineEntity, p } from '@mikro-orm/core';
import type { KycRailStatus } from '../../domain/kyc.js';
import type { RecordedAddress } from '../../domain/address.js';
import { CUSTOMER_TYPES } from './inputs.js';
import type { StoredProfile } from './records.js';
import { TENANT_FILTERS, tenantColumns } from '../../platform/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/columns.js';

const CustomerSchema = defineEntity({
  name: 'Customer',
  tableName: 'customers',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    email: p.text(),
    type: p.enum(CUSTOMER_TYPES),
    firstName: p.text().nullable(),
    lastName: p.text().nullable(),
    companyName: p.text().nullable(),
    /** As the spec writes it; without a postal code when it came from the KYB business address. */
    address: p.json<RecordedAddress>().nullable(),
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
 * The key that seals a customer's document and tax numbers (32 random bytes), wrapped by the master
 * key. Erasure deletes the row: what it sealed, in this database or any copy of it, stays unreadable.
 */
const CustomerDataKeySchema = defineEntity({
  name: 'CustomerDataKey',
  tableName: 'customer_data_keys',
  filters: TENANT_FILTERS,
  properties: {
    customerId: p.uuid().primary(),
    ...tenantColumns(),
    /** The fingerprint of the master key that wrapped it (platform/sealing.ts). */
    masterKeyId: p.text(),
    wrappedKey: p.text(),
    createdAt: createdAtColumn(),
  },
});
export class CustomerDataKey extends CustomerDataKeySchema.class {}
CustomerDataKeySchema.setClass(CustomerDataKey);

export const customerEntities = [Customer, CustomerDataKey];

/** The tables above as the module's query file reads them (platform/queries.ts): SQL names, the entities' value types. */
export type CustomerTables = InferKyselyDB<typeof CustomerSchema>;
