import type { EntityManager } from '@mikro-orm/sql';
import type { Job } from '../../platform/runtime/jobs.js';
import type { SigningSecrets } from './secrets.js';

const BATCH = 100;

/**
 * Re-seals up to `limit` endpoints' signing secrets that the current master key did not seal (the earlier format,
 * or the previous master key during a rotation), current and replaced alike, deleted endpoints too: at rest every
 * secret ends up under the one master key. Rows are claimed with SKIP LOCKED, so instances share the work. A replaced
 * secret that no longer opens is dropped (it could sign nothing); a current one that does not open stops the job,
 * loudly: that endpoint could not be delivered to either.
 */
export async function resealSigningSecrets(em: EntityManager, secrets: SigningSecrets, limit = BATCH): Promise<number> {
  return em.transactional(async (tx) => {
    const pattern = `${secrets.currentPrefix}%`;
    const rows = await tx.execute<{ id: string; secret_encrypted: string; previous_secret_encrypted: string | null }[]>(
      `select id, secret_encrypted, previous_secret_encrypted from webhook_endpoints
       where secret_encrypted not like ? or previous_secret_encrypted not like ?
       limit ? for update skip locked`,
      [pattern, pattern, limit],
    );
    for (const row of rows) {
      const current = secrets.seal(row.id, secrets.open(row.id, row.secret_encrypted));
      let previous: string | null = null;
      if (row.previous_secret_encrypted) {
        try {
          previous = secrets.seal(row.id, secrets.open(row.id, row.previous_secret_encrypted));
        } catch {
          previous = null;
        }
      }
      await tx.execute('update webhook_endpoints set secret_encrypted = ?, previous_secret_encrypted = ? where id = ?', [current, previous, row.id]);
    }
    return rows.length;
  });
}

/** Signing secrets re-sealed under the current master key, at start and every poll until none is left. */
export const webhookKeyJobs = (secrets: SigningSecrets): Job[] => [
  { name: 'reseal-webhook-secrets', batchSize: BATCH, run: (em) => resealSigningSecrets(em, secrets) },
];
