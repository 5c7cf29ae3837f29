import { defineEntity, p } from '@mikro-orm/core';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';

/** A redeemed provider share token. Only its SHA-256 is kept; the unique key refuses a second use. */
const KycImportSchema = defineEntity({
  name: 'KycImport',
  tableName: 'kyc_imports',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    provider: p.text(),
    tokenHash: p.text(),
    customerId: p.uuid().nullable(),
    result: p.enum(['in_review', 'approved', 'rejected'] as const),
    createdAt: createdAtColumn(),
  },
});
export class KycImport extends KycImportSchema.class {}
KycImportSchema.setClass(KycImport);

export const kycImportEntities = [KycImport];
