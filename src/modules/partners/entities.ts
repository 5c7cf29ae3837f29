import { defineEntity, p } from '@mikro-orm/core';
import { ENVIRONMENTS } from '../../domain/environment.js';

const PartnerSchema = defineEntity({
  name: 'Partner',
  tableName: 'partners',
  properties: {
    id: p.uuid().primary(),
    name: p.text().unique(),
    email: p.text().nullable(),
    phone: p.text().nullable(),
    location: p.text().nullable(),
    /** Partner client reference shown as `client_ID` in accountInfo. */
    clientId: p.text().unique(),
    grantServices: p.array().default(['QUOTESANDORDERS']),
    /** Platform fee charged on every transfer, in basis points. */
    platformFeeBps: p.integer().default(0),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Partner extends PartnerSchema.class {}
PartnerSchema.setClass(Partner);

const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    partner: () => p.manyToOne(Partner),
    environment: p.enum(ENVIRONMENTS),
    /** Non-secret lookup prefix (`rk_sandbox_ab12cd34`); the full key is never stored. */
    prefix: p.text().unique(),
    secretHash: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
});
export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);

export const partnerEntities = [Partner, ApiKey];
