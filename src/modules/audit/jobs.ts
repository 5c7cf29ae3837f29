import type { Job } from '../../platform/runtime/jobs.js';

const SEAL_BATCH = 1000;
const TRIM_BATCH = 1000;

/**
 * Links committed audit rows older than `delaySeconds` into their partner's hash chain, through the database's
 * `audit_seal` (a SECURITY DEFINER function: the application's role may not write a link itself). Apart from the write
 * path, so an audited change still costs one INSERT and writers never wait on each other for the chain.
 */
export function sealAuditLog(delaySeconds: number): Job {
  return {
    name: 'seal-audit-log',
    batchSize: SEAL_BATCH,
    run: async (em) => {
      const [row] = await em.execute<{ linked: number }[]>('select audit_seal(?, ?) as linked', [delaySeconds, SEAL_BATCH]);
      return Number(row?.linked ?? 0);
    },
  };
}

/**
 * Deletes linked audit rows older than the retention, in batches, through the database's `audit_trim`: the one way
 * rows leave the log, with a floor of 30 days fixed by its migration, whatever retention is asked for.
 */
export function trimAuditLog(retentionDays: number): Job {
  return {
    name: 'trim-audit-log',
    batchSize: TRIM_BATCH,
    run: async (em) => {
      const [row] = await em.execute<{ deleted: number }[]>('select audit_trim(?, ?) as deleted', [retentionDays, TRIM_BATCH]);
      return Number(row?.deleted ?? 0);
    },
  };
}
