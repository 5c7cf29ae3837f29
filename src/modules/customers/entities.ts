import { defineEntity, p } from '@mikro-orm/core';
import { ENVIRONMENTS } from '../../domain/environment.js';
import type { KycRailStatus } from '../../domain/kyc.js';
import { CUSTOMER_TYPES, type CustomerAddress, type CustomerProfile } from './inputs.js';

const CustomerSchema = defineEntity({
  name: 'Customer',
  tableName: 'customers',
  properties: {
    id: p.uuid().primary(),
    partnerId: p.uuid(),
    environment: p.enum(ENVIRONMENTS),
    email: p.text(),
    type: p.enum(CUSTOMER_TYPES),
    firstName: p.text().nullable(),
    lastName: p.text().nullable(),
    companyName: p.text().nullable(),
    address: p.json<CustomerAddress>().nullable(),
    kycStatusBreakdown: p.json<KycRailStatus[]>(),
    kycSubStatus: p.text().nullable(),
    /** Secret part of the sandbox KYC page link: the link alone lets a tester act on this customer. */
    kycPageToken: p.text(),
    /** What PUT /v0/customers/{id} carried: provider token, identifying information, documents. */
    profile: p.json<CustomerProfile>(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});
export class Customer extends CustomerSchema.class {}
CustomerSchema.setClass(Customer);

export const customerEntities = [Customer];
