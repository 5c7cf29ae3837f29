import type { EntityManager } from '@mikro-orm/sql';
import type { Database } from '../db/database.js';
import type { Logger } from '../observability/logging.js';
import { failureLevel } from '../db/database-errors.js';

/**
 * Background work kept in PostgreSQL itself, so N instances need nothing else: a job claims its rows with
 * `FOR UPDATE SKIP LOCKED` inside its own transaction, so any number of instances can poll the
 * same tables and no row is handled twice. Works the same on embedded PGlite.
 */
export interface Job {
  name: string;
  /** Handles one batch in a fresh EntityManager; returns how many rows it handled. */
  run(em: EntityManager): Promise<number>;
  /** A full batch means more may be waiting: the runner goes again at once. */
  batchSize: number;
}

export interface JobRunner {
  /** Runs every job once (until each has a partial batch); used by tests and at start. */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** Polls every job each `intervalMs`; 0 means never (the runner then only runs on `runOnce`). */
export function startJobRunner(deps: { db: Database; logger: Logger; intervalMs: number; jobs: readonly Job[] }): JobRunner {
  const { db, logger, intervalMs, jobs } = deps;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  async function runJob(job: Job) {
    for (let round = 0; round < 100 && !stopped; round++) {
      try {
        const handled = await job.run(db.fork());
        if (handled > 0) logger.debug({ job: job.name, handled }, 'job batch done');
        if (handled < job.batchSize) return;
      } catch (error) {
        logger[failureLevel(error)]({ err: error, job: job.name }, 'job failed; retrying on the next tick');
        return;
      }
    }
  }

  async function tick() {
    for (const job of jobs) await runJob(job);
  }

  function schedule() {
    if (stopped || intervalMs <= 0) return;
    timer = setTimeout(() => {
      running = tick().finally(schedule);
    }, intervalMs);
    timer.unref();
  }
  schedule();

  return {
    runOnce() {
      running = running.then(tick);
      return running;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
