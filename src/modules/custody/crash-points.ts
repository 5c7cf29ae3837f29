import type { Config, CrashPoint } from '../../config.js';

/*
 * The steps of each money path where the crash tests kill the process (TEST_CRASH_AT, honoured only under
 * NODE_ENV=test): each is right after what must be sent was stored and committed, before this process sends it.
 * The next instance must send it, once.
 */
export type { CrashPoint };

/** The configured crash point: only under NODE_ENV=test, a fault to inject and never a way to run. */
export function crashPointOf(config: Config): CrashPoint | null {
  if (config.NODE_ENV !== 'test') return null;
  return config.TEST_CRASH_AT ?? null;
}

/** Kills the process, as a power cut would (no exit handler runs), when `point` is the configured one. */
export function crashAt(configured: CrashPoint | null, point: CrashPoint): void {
  if (configured === point) process.kill(process.pid, 'SIGKILL');
}
