import type { InferKyselyDB } from '@mikro-orm/sql';
import { defineEntity, p } from '@mikro-orm/core';
import type { Decimal } from '../../domain/money.js';
import { DecimalColumn } from '../../platform/db/decimal-column.js';
import { FIAT_CURRENCIES, NETWORKS, PAYMENT_RAILS, TOKENS } from '../../domain/money.js';
import { TRANSFER_DIRECTIONS, TRANSFER_STATUSES } from '../../domain/transfer-status.js';
import { TRANSFER_PURPOSES } from '../../domain/transfer-purpose.js';
import type { BankAccountDetails } from '../bank-accounts/records.js';
import type { DepositBankAccount } from './accounts/deposit-instructions.js';
import { TENANT_FILTERS, tenantColumns } from '../../platform/security/tenant.js';
import { createdAtColumn, idColumn } from '../../platform/db/columns.js';

const ASSETS = [...FIAT_CURRENCIES, ...TOKENS] as const;
/** Money and rates: numeric(38,18) in SQL, a Decimal in memory (never a JS number). */
const money = () => p.type(DecimalColumn).$type<Decimal>().precision(38).scale(18);

/**
 * A priced offer, valid until `expiresAt`, turned into at most one transfer. Immutable once
 * written: the transfer shows the amounts the customer agreed to.
 */
const QuoteSchema = defineEntity({
  name: 'Quote',
  tableName: 'quotes',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    customerId: p.uuid(),
    direction: p.enum(TRANSFER_DIRECTIONS),
    sourceCurrency: p.enum(ASSETS),
    /** On-ramp: the bank rails the fiat arrives on. */
    sourceRails: p.enum(PAYMENT_RAILS).nullable(),
    /** Off-ramp: the chain the tokens arrive on. */
    sourceNetwork: p.enum(NETWORKS).nullable(),
    destinationCurrency: p.enum(ASSETS),
    destinationRails: p.enum(PAYMENT_RAILS).nullable(),
    destinationNetwork: p.enum(NETWORKS).nullable(),
    /** Which amount the partner gave; the other was computed. */
    requestedSide: p.enum(['source', 'destination'] as const),
    sourceAmount: money(),
    destinationAmount: money(),
    exchangeRate: money(),
    platformFee: money(),
    developerFee: money(),
    networkFee: money(),
    feeAmount: money(),
    developerFeePercent: p.type(DecimalColumn).$type<Decimal>().precision(11).scale(8),
    platformFeeBps: p.integer(),
    expiresAt: p.datetime(),
    createdAt: createdAtColumn(),
  },
});
export class Quote extends QuoteSchema.class {}
QuoteSchema.setClass(Quote);

const TransferSchema = defineEntity({
  name: 'Transfer',
  tableName: 'transfers',
  filters: TENANT_FILTERS,
  properties: {
    id: idColumn(),
    ...tenantColumns(),
    customerId: p.uuid(),
    /** Unique: one quote makes at most one transfer (the database enforces it). */
    quoteId: p.uuid().unique(),
    direction: p.enum(TRANSFER_DIRECTIONS),
    status: p.enum(TRANSFER_STATUSES),
    // On-ramp: where the tokens go, and how the customer pays in.
    destinationAddress: p.text().nullable(),
    depositBankAccount: p.json<DepositBankAccount>().nullable(),
    depositMessage: p.text().nullable(),
    /** On-ramp: the hash of the token delivery, once settled. */
    payoutTransactionHash: p.text().nullable(),
    /** An off-ramp paid through an ISO 20022 bank: its payment's UETR (UUID v4), the id banks track it by end to end. */
    uetr: p.uuid().nullable(),
    virtualAccountId: p.uuid().nullable(),
    // Off-ramp: where the fiat goes, and where the customer sends the tokens.
    /**
     * The payout account as validated at creation, its IBAN or account number hidden but for the last four
     * characters (what reads show, masked: no read opens anything); a row from before encryption at rest holds
     * the number in clear until the job `seal-clear-payout-numbers` seals it.
     */
    destinationBankAccount: p.json<BankAccountDetails>().nullable(),
    /**
     * That number in full, sealed by the customer's data key: opened only for the payout (payout-account.ts).
     * Lazy: no read of a transfer selects it.
     */
    destinationNumber: p.text().nullable().lazy(),
    destinationExternalAccountId: p.uuid().nullable(),
    transferPurpose: p.enum(TRANSFER_PURPOSES).nullable(),
    depositBlockchainAddress: p.text().nullable(),
    /** Off-ramp on a live chain: the address's index under the deposit xpub (unique: an address is never reused). */
    depositAddressIndex: p.bigint('number').nullable(),
    depositTransactionHash: p.text().nullable(),
    /** When the customer's deposit was received (and posted to the ledger). */
    fundsReceivedAt: p.datetime().nullable(),
    /** What arrived, set with `fundsReceivedAt`: the deposit amount, or less or more (an on-ramp's fiat). */
    depositReceivedAmount: money().nullable(),
    failureReason: p.text().nullable(),
    /** Live chains: confirmations of the transfer's chain transaction (the deposit of an off-ramp, the payout of an on-ramp). */
    confirmations: p.integer().nullable(),
    /** What `confirmations` must reach: the network's count when the transaction was seen. */
    requiredConfirmations: p.integer().nullable(),
    /** A pending transfer past this moment expires. */
    depositExpiresAt: p.datetime(),
    createdAt: createdAtColumn(),
    updatedAt: p.datetime(),
  },
});
export class Transfer extends TransferSchema.class {}
TransferSchema.setClass(Transfer);

/** Every status a transfer went through, with when and why; ordered by `id`. */
const TransferStatusChangeSchema = defineEntity({
  name: 'TransferStatusChange',
  tableName: 'transfer_status_history',
  properties: {
    id: p.bigint('string').primary().autoincrement(),
    transferId: p.uuid(),
    fromStatus: p.enum(TRANSFER_STATUSES).nullable(),
    toStatus: p.enum(TRANSFER_STATUSES),
    reason: p.text(),
    createdAt: createdAtColumn(),
  },
});
export class TransferStatusChange extends TransferStatusChangeSchema.class {}
TransferStatusChangeSchema.setClass(TransferStatusChange);

export const transferEntities = [Quote, Transfer, TransferStatusChange];

/** The tables above as the module's query file reads them (platform/reads/queries.ts): SQL names, the entities' value types. */
export type TransferTables = InferKyselyDB<typeof QuoteSchema | typeof TransferSchema | typeof TransferStatusChangeSchema>;
