import type { InferKyselyDB } from '@mikro-orm/sql';
import { defineEntity, p } from '@mikro-orm/core';
import { ACCOUNT_HOLDER_TYPES, type AccountHolderAddress, BANK_ACCOUNT_TYPES, US_ACCOUNT_TYPES } from './inputs.js';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';

/**
 * A customer's own bank account that off-ramp payouts go to. Its IBAN or account number is stored
 * normalised and sealed by the customer's data key (a payout opens it); what reads show is kept beside
 * it, all but its last four characters hidden, so no read opens it. Rows from before encryption hold
 * the number in clear (and no digest) until the job `seal-clear-bank-numbers` seals them.
 */
const BankAccountSchema = defineEntity({
  name: 'BankAccount',
  tableName: 'external_accounts',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    customerId: p.uuid(),
    accountType: p.enum(BANK_ACCOUNT_TYPES),
    bankName: p.text(),
    accountHolderType: p.enum(ACCOUNT_HOLDER_TYPES),
    accountHolderFirstName: p.text().nullable(),
    accountHolderLastName: p.text().nullable(),
    accountHolderBusinessName: p.text().nullable(),
    accountHolderAddress: p.json<AccountHolderAddress>(),
    /** IBAN variant; sealed (`v1:…`), or in clear in a row from before encryption. */
    ibanNumber: p.text().nullable(),
    /** IBAN and SWIFT variants. */
    bic: p.text().nullable(),
    /** US and SWIFT variants; sealed as ibanNumber is. */
    accountNumber: p.text().nullable(),
    /** The IBAN or account number as reads show it: all but its last four characters hidden (`hiddenNumber`). */
    hiddenNumber: p.text().nullable(),
    /** A keyed digest of the number (the customer's data key): what "the same account twice" compares. */
    numberDigest: p.text().nullable(),
    /** US (ABA) and, optionally, SWIFT (national clearing code). */
    routingNumber: p.text().nullable(),
    usAccountType: p.enum(US_ACCOUNT_TYPES).nullable(),
    createdAt: createdAtColumn(),
  },
});
export class BankAccount extends BankAccountSchema.class {}
BankAccountSchema.setClass(BankAccount);

export const bankAccountEntities = [BankAccount];

/** The tables above as the module's query file reads them (platform/reads/queries.ts): SQL names, the entities' value types. */
export type BankAccountTables = InferKyselyDB<typeof BankAccountSchema>;
