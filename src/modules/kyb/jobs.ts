import type { EntityManager } from '@mikro-orm/sql';
import type { Environment } from '../../domain/environment.js';
import type { Job } from '../../platform/jobs.js';
import { isSealed } from '../../platform/sealing.js';
import { scopeTo } from '../../platform/tenant.js';
import type { DataKeys } from '../customers/data-keys.js';

const BATCH = 100;

interface ClearRepresentative {
  id: string;
  customer_id: string;
  partner_id: string;
  environment: Environment;
  dob: string;
  document_no: string;
}

/**
 * Seals the birth dates and document numbers of directors recorded before encryption at rest, and gives
 * their documents the keyed digest the uniqueness compares. SKIP LOCKED batches: instances share the work.
 */
async function sealClearRepresentatives(em: EntityManager, dataKeys: DataKeys): Promise<number> {
  return em.transactional(async (tx) => {
    const rows = await tx.execute<ClearRepresentative[]>(
      `select id, customer_id, partner_id, environment, dob, document_no from business_legal_representatives
       where dob not like 'v1:%' or document_no not like 'v1:%' or document_digest is null
       limit ? for update skip locked`,
      [BATCH],
    );
    for (const row of rows) {
      scopeTo(tx, { partnerId: row.partner_id, environment: row.environment });
      const open = async (stored: string) => (isSealed(stored) ? await dataKeys.open(tx, row.customer_id, stored) : stored);
      const seal = async (stored: string) => (isSealed(stored) ? stored : dataKeys.seal(tx, row.customer_id, stored));
      const documentNo = await open(row.document_no);
      if (documentNo === null) continue;
      await tx.execute('update business_legal_representatives set dob = ?, document_no = ?, document_digest = ? where id = ?', [
        await seal(row.dob),
        await seal(row.document_no),
        await dataKeys.digest(tx, row.customer_id, documentNo),
        row.id,
      ]);
    }
    return rows.length;
  });
}

export const kybKeyJobs = (dataKeys: DataKeys): Job[] => [
  { name: 'seal-clear-directors', batchSize: BATCH, run: (em) => sealClearRepresentatives(em, dataKeys) },
];
