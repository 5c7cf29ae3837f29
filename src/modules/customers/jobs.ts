import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../domain/environment.js';
import type { Job } from '../../platform/runtime/jobs.js';
import { scopeTo } from '../../platform/security/tenant.js';
import type { DataKeys } from './data-keys.js';
import { personalSeal } from './personal-data.js';
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

/**
 * Seals the personal values of customers from before they were sealed (the migration moved them, in clear, into
 * `personal`, and dropped the clear columns) and digests their emails. The row's one copy is overwritten, so once
 * none is left a backup holds no clear value. An erased customer's markers stay as they are.
 */
async function sealClearPersonalData(em: EntityManager, dataKeys: DataKeys): Promise<number> {
  const personal = personalSeal(dataKeys);
  return em.transactional(async (tx) => {
    const rows = await tx.execute<{ id: string; partner_id: string; environment: Environment; personal: string }[]>(
      `select id, partner_id, environment, personal from customers
       where redacted_at is null and (personal not like 'v1:%' or email_digest is null)
       limit ? for update skip locked`,
      [BATCH],
    );
    for (const row of rows) {
      scopeTo(tx, { partnerId: row.partner_id, environment: row.environment });
      const [customer] = await personal.open(tx, [{ id: row.id, personal: row.personal, emailDigest: null as string | null }]);
      await personal.seal(tx, customer!);
      await tx.execute('update customers set personal = ?, email_digest = ? where id = ?', [customer!.personal, customer!.emailDigest, row.id]);
    }
    return rows.length;
  });
}

/** The customers' key work: clear values sealed, and data keys re-wrapped during a master key rotation. */
export const customerKeyJobs = (dataKeys: DataKeys): Job[] => [
  { name: 'seal-clear-personal-data', batchSize: BATCH, run: (em) => sealClearPersonalData(em, dataKeys) },
  { name: 'seal-clear-kyc-numbers', batchSize: BATCH, run: (em) => sealClearNumbers(em, dataKeys) },
  { name: 'rewrap-data-keys', batchSize: BATCH, run: (em) => dataKeys.rewrap(em, BATCH) },
];
