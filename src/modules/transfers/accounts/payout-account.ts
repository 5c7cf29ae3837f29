import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../../domain/environment.js';
import { REDACTED } from '../../../domain/redaction.js';
import type { Job } from '../../../platform/runtime/jobs.js';
import { scopeTo } from '../../../platform/security/tenant.js';
import { type BankAccountDetails, maskedDetails, numberOfDetails, withNumber } from '../../bank-accounts/records.js';
import type { DataKeys } from '../../customers/data-keys.js';

/**
 * An off-ramp's payout account at rest (decision 022): the jsonb copy keeps its IBAN or account number hidden but
 * for the last four characters, which is all any read shows (masked), and `destination_number` holds the number
 * sealed by the customer's data key, opened only where money is sent.
 */
export async function sealedDestination(em: EntityManager, dataKeys: DataKeys, customerId: string, details: BankAccountDetails) {
  return { destinationBankAccount: maskedDetails(details)!, destinationNumber: await dataKeys.seal(em, customerId, numberOfDetails(details)) };
}

/** The sealed numbers of a customer's off-ramps by transfer id (the column is lazy: no other read selects it). */
export async function sealedNumbersOfCustomer(em: EntityManager, customerId: string): Promise<Map<string, string>> {
  const rows = await em.execute<{ id: string; destination_number: string }[]>(
    'select id, destination_number from transfers where customer_id = ? and destination_number is not null',
    [customerId],
  );
  return new Map(rows.map((row) => [row.id, row.destination_number]));
}

/**
 * The payout account in clear, for the rail that sends the money: its sealed number opened (one more read of the
 * transfer's row and of the customer's data key). A row from before encryption holds the number in clear already;
 * a customer's erased number reads `[redacted]`.
 */
export async function payoutAccountOf(
  em: EntityManager,
  dataKeys: DataKeys,
  transfer: { id: string; customerId: string; destinationBankAccount?: BankAccountDetails | null },
): Promise<BankAccountDetails | null> {
  if (!transfer.destinationBankAccount) return null;
  const [row] = await em.execute<{ destination_number: string | null }[]>('select destination_number from transfers where id = ?', [transfer.id]);
  const sealed = row?.destination_number;
  if (!sealed) return transfer.destinationBankAccount;
  return withNumber(transfer.destinationBankAccount, (await dataKeys.open(em, transfer.customerId, sealed)) ?? REDACTED);
}

const BATCH = 100;

/** The predicate of the partial index transfers_clear_destination_numbers: payout accounts still in clear. */
const CLEAR_DESTINATION = `destination_bank_account is not null and destination_number is null
  and coalesce(destination_bank_account #>> '{iban,iban_number}', destination_bank_account #>> '{us,account_number}',
               destination_bank_account #>> '{swift,account_number}') <> '[redacted]'`;

/**
 * Seals the payout account numbers of off-ramps created before encryption at rest: the number sealed into
 * `destination_number`, the jsonb copy left with it hidden. SKIP LOCKED batches, as the other sealing jobs.
 */
async function sealClearDestinations(em: EntityManager, dataKeys: DataKeys): Promise<number> {
  return em.transactional(async (tx) => {
    const rows = await tx.execute<
      { id: string; customer_id: string; partner_id: string; environment: Environment; destination: BankAccountDetails | string }[]
    >(
      `select id, customer_id, partner_id, environment, destination_bank_account as destination from transfers
       where ${CLEAR_DESTINATION} limit ? for update skip locked`,
      [BATCH],
    );
    for (const row of rows) {
      scopeTo(tx, { partnerId: row.partner_id, environment: row.environment });
      const details = typeof row.destination === 'string' ? (JSON.parse(row.destination) as BankAccountDetails) : row.destination;
      const sealed = await sealedDestination(tx, dataKeys, row.customer_id, details);
      await tx.execute('update transfers set destination_bank_account = ?::jsonb, destination_number = ? where id = ?', [
        JSON.stringify(sealed.destinationBankAccount),
        sealed.destinationNumber,
        row.id,
      ]);
    }
    return rows.length;
  });
}

export const payoutAccountJobs = (dataKeys: DataKeys): Job[] => [
  { name: 'seal-clear-payout-numbers', batchSize: BATCH, run: (em) => sealClearDestinations(em, dataKeys) },
];
