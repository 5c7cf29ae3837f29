import { monitorEventLoopDelay } from 'node:perf_hooks';

/** What is saturated right now, if anything: what admission control sheds load for. */
export type SaturatedBy = 'event_loop' | 'database_pool';

export interface SaturationSignals {
  /** What is saturated now, or null when both the event loop and the database keep up. */
  saturatedBy(): SaturatedBy | null;
  close(): void;
}

export interface SaturationLimits {
  /** The event loop is saturated when its p99 delay over the last window passes this. */
  loopDelayLimitMs: number;
  /** The database is saturated when a connection took longer than this to get, lately (an average of recent waits). */
  poolWaitLimitMs: number;
}

/** How often the loop-delay histogram is read and started again. */
const WINDOW_MS = 500;

/**
 * The instance's own saturation, measured rather than inferred from a queue: event-loop delay (CPU: handlers, JSON,
 * crypto, and embedded PGlite, which runs on this thread) and how long a request waited for a database connection
 * (a PostgreSQL pool that cannot keep up). A queue can be long for other reasons (a row lock, a slow client) that more
 * concurrency does not make worse.
 */
export function watchSaturation(limits: SaturationLimits, poolWaitMs: () => number): SaturationSignals {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let loopDelayMs = 0;
  const timer = setInterval(() => {
    loopDelayMs = histogram.count > 0 ? histogram.percentile(99) / 1e6 : 0;
    histogram.reset();
  }, WINDOW_MS);
  timer.unref();
  return {
    saturatedBy() {
      if (loopDelayMs > limits.loopDelayLimitMs) return 'event_loop';
      if (poolWaitMs() > limits.poolWaitLimitMs) return 'database_pool';
      return null;
    },
    close() {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

/** Recent waits for a pooled connection, as a moving average that forgets within a few seconds of calm. */
export interface PoolWaits {
  record(waitedMs: number): void;
  /** The average of recent waits, decayed by the time since the last one. */
  recentMs(): number;
}

const HALF_LIFE_MS = 1000;

export function poolWaits(): PoolWaits {
  let average = 0;
  let at = Date.now();
  const decayed = (now: number) => average * 0.5 ** ((now - at) / HALF_LIFE_MS);
  return {
    record(waitedMs) {
      const now = Date.now();
      average = decayed(now) * 0.8 + waitedMs * 0.2;
      at = now;
    },
    recentMs: () => decayed(Date.now()),
  };
}
