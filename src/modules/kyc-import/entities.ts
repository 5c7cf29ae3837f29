import { defineEntity, p } from '@mikro-orm/core';
import { ENVIRONMENTS } from '../../domain/environment.js';

/** A redeemed provider share token. Only its SHA-256 is kept; the unique key refuses a second use. */
const KycImportSchema = defineEntity({
  name: 'KycImport',
  tableName: 'kyc_imports',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    provider: p.text(),
    tokenHash: p.text(),
    customerId: p.uuid().nullable(),
    result: p.enum(['in_review', 'approved', 'rejected'] as const),
    createdAt: p.datetime(),
  },
});
export class KycImport extends KycImportSchema.class {}
KycImportSchema.setClass(KycImport);

export const kycImportEntities = [KycImport];
