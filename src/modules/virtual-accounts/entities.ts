import type { InferKyselyDB } from '@mikro-orm/sql';
import { defineEntity, p } from '@mikro-orm/core';
import type { Decimal } from '../../domain/money.js';
import { DecimalColumn } from '../../platform/db/decimal-column.js';
import { FIAT_CURRENCIES, NETWORKS, TOKENS } from '../../domain/money.js';
import { VIRTUAL_ACCOUNT_SOURCE_RAILS, VIRTUAL_ACCOUNT_STATUSES } from './inputs.js';
import type { DepositInstructions } from './issuance.js';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';

/** A bank account number issued to a customer; fiat paid into it is forwarded as a token. */
const VirtualAccountSchema = defineEntity({
  name: 'VirtualAccount',
  tableName: 'virtual_accounts',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    customerId: p.uuid(),
    status: p.enum(VIRTUAL_ACCOUNT_STATUSES),
    sourceCurrency: p.enum(FIAT_CURRENCIES),
    sourceRails: p.enum(VIRTUAL_ACCOUNT_SOURCE_RAILS).nullable(),
    destinationToken: p.enum(TOKENS),
    destinationNetwork: p.enum(NETWORKS),
    destinationAddress: p.text().nullable(),
    /** numeric(11,8): a percentage, exact. */
    developerFeePercent: p.type(DecimalColumn).$type<Decimal>().precision(11).scale(8).nullable(),
    /** Set when the account is issued (at once, or by the simulate action). */
    depositInstructions: p.json<DepositInstructions>().nullable(),
    /** The IBAN or account number deposits arrive on; unique, so a deposit finds exactly one account. */
    depositAccountNumber: p.text().nullable(),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
  },
});
export class VirtualAccount extends VirtualAccountSchema.class {}
VirtualAccountSchema.setClass(VirtualAccount);

export const virtualAccountEntities = [VirtualAccount];

/** The tables above as the module's query file reads them (platform/reads/queries.ts): SQL names, the entities' value types. */
export type VirtualAccountTables = InferKyselyDB<typeof VirtualAccountSchema>;
