import type { Job } from '../../platform/jobs.js';

const TRIM_BATCH = 1000;

/**
 * Deletes audit rows older than the retention, in batches. The table refuses DELETE (migration
 * 20261127000200) unless the transaction sets `ramp.audit_retention`, and then only of rows older than
 * that interval: this job is the one writer that sets it, for its own transaction only.
 */
export function trimAuditLog(retentionDays: number): Job {
  const retention = `${retentionDays} days`;
  return {
    name: 'trim-audit-log',
    batchSize: TRIM_BATCH,
    run: (em) =>
      em.transactional(async (tx) => {
        await tx.execute(`select set_config('ramp.audit_retention', ?, true)`, [retention]);
        const deleted = await tx.execute(
          `delete from audit_events where id in (
             select id from audit_events where occurred_at < now() - ?::interval order by occurred_at limit ${TRIM_BATCH}
           ) returning 1`,
          [retention],
        );
        return deleted.length;
      }),
  };
}
