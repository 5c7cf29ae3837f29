import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../domain/environment.js';
import type { Job } from '../../platform/runtime/jobs.js';
import { scopeTo } from '../../platform/security/tenant.js';
import type { DataKeys } from '../customers/data-keys.js';
import { hiddenNumber } from './records.js';

const BATCH = 100;

/**
 * Seals the numbers of external accounts registered before encryption at rest, and gives them the hidden
 * number reads show and the digest the uniqueness compares (new accounts get all three as they are made).
 * SKIP LOCKED batches: instances share the work; it runs at start and every poll until none is left in clear.
 */
async function sealClearAccountNumbers(em: EntityManager, dataKeys: DataKeys): Promise<number> {
  return em.transactional(async (tx) => {
    // The predicate of the partial index external_accounts_clear_numbers: an empty index once every number is sealed.
    const rows = await tx.execute<{ id: string; customer_id: string; partner_id: string; environment: Environment; number: string }[]>(
      `select id, customer_id, partner_id, environment, coalesce(iban_number, account_number) as number from external_accounts
       where coalesce(iban_number, account_number) not like 'v1:%' and coalesce(iban_number, account_number) <> '[redacted]'
       limit ? for update skip locked`,
      [BATCH],
    );
    const seal = `update external_accounts set iban_number = case when iban_number is null then null else ? end,
      account_number = case when account_number is null then null else ? end, hidden_number = ?, number_digest = ? where id = ?`;
    for (const row of rows) {
      // The data key is made in the customer's own tenant.
      scopeTo(tx, { partnerId: row.partner_id, environment: row.environment });
      const sealed = await dataKeys.seal(tx, row.customer_id, row.number);
      const values = (digest: string | null) => [sealed, sealed, hiddenNumber(row.number), digest, row.id];
      const digest = await dataKeys.digest(tx, row.customer_id, row.number);
      try {
        // A savepoint: a refused row must not undo the batch.
        await tx.transactional((inner) => inner.execute(seal, values(digest)));
      } catch (error) {
        if (!(error instanceof UniqueConstraintViolationException)) throw error;
        // Registered again (sealed, with this digest) before this older row was sealed: it is sealed without a digest,
        // so the pair stays as it was made and this job does not trip on it again.
        await tx.execute(seal, values(null));
      }
    }
    return rows.length;
  });
}

export const bankAccountKeyJobs = (dataKeys: DataKeys): Job[] => [
  { name: 'seal-clear-bank-numbers', batchSize: BATCH, run: (em) => sealClearAccountNumbers(em, dataKeys) },
];
