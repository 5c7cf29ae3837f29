import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../domain/environment.js';
import type { Job } from '../../platform/jobs.js';
import { scopeTo } from '../../platform/tenant.js';
import type { DataKeys } from './data-keys.js';
import { type StoredProfile, sealedNumbersOf } from './records.js';

const BATCH = 100;

/**
 * Seals the document and tax numbers of customers written before encryption at rest (new writes are
 * sealed as they are made). Rows are claimed with SKIP LOCKED, so instances share the work; it runs at
 * start and every poll until none is left in clear.
 */
async function sealClearNumbers(em: EntityManager, dataKeys: DataKeys): Promise<number> {
  return em.transactional(async (tx) => {
    const rows = await tx.execute<{ id: string; partner_id: string; environment: Environment; profile: StoredProfile }[]>(
      `select id, partner_id, environment, profile from customers
       where redacted_at is null
         and ((profile #>> '{identifying_information,id_document,number}') not like 'v1:%'
           or (profile #>> '{identifying_information,tax_number}') not like 'v1:%')
       limit ? for update skip locked`,
      [BATCH],
    );
    for (const row of rows) {
      // The data key is made in the customer's own tenant.
      scopeTo(tx, { partnerId: row.partner_id, environment: row.environment });
      const profile = typeof row.profile === 'string' ? (JSON.parse(row.profile) as StoredProfile) : row.profile;
      const sealed = await sealedNumbersOf(profile, (clear) => dataKeys.seal(tx, row.id, clear));
      await tx.execute('update customers set profile = ?::jsonb where id = ?', [JSON.stringify(sealed), row.id]);
    }
    return rows.length;
  });
}

/** The customers' key work: clear numbers sealed, and data keys re-wrapped during a master key rotation. */
export const customerKeyJobs = (dataKeys: DataKeys): Job[] => [
  { name: 'seal-clear-kyc-numbers', batchSize: BATCH, run: (em) => sealClearNumbers(em, dataKeys) },
  { name: 'rewrap-data-keys', batchSize: BATCH, run: (em) => dataKeys.rewrap(em, BATCH) },
];
