import { lockSync } from 'proper-lockfile';
import { lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Refusal } from '../../refusal.js';

/** The holder refreshes the lock's mtime every UPDATE_MS; one not refreshed for STALE_MS was left by a process that died. */
export const LOCK_STALE_MS = 10_000;
const UPDATE_MS = 2_000;
const POLL_MS = 250;

/** Directories this process holds: a second open in the same process is refused at once, not after a wait. */
const held = new Set<string>();

/**
 * Embedded PGlite is a database inside one process: a second process opening the same files
 * (a second `npm start`, or `npm run keys` while the server runs) would write over the first's
 * changes or corrupt them. The data directory therefore carries a lock (proper-lockfile: an
 * atomic mkdir whose mtime the holder keeps fresh). Staleness is judged by that mtime, never by
 * a pid, because a container's PID 1 restarting after a crash finds its own pid in any pid file.
 * A lock still fresh at start may belong to a process that just died: we wait until it is stale
 * (at most LOCK_STALE_MS) and take it over; a live holder keeps it fresh, so we then refuse.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'ramp.lock');
  const ownerPath = join(dataDir, 'ramp.lock.owner');
  const refusal = () =>
    new Refusal(
      `The embedded database in ${dataDir} is in use by process ${readOwner(ownerPath)}: ` +
        'stop that process first, or give both the same DATABASE_URL (PostgreSQL serves many processes).',
    );
  if (held.has(lockPath)) throw refusal();
  removeLegacyLockFile(lockPath);

  const release = acquire(dataDir, lockPath, refusal);
  held.add(lockPath);
  writeFileSync(ownerPath, String(process.pid)); // only to name the holder in the refusal above
  return () => {
    if (!held.delete(lockPath)) return;
    rmSync(ownerPath, { force: true });
    try {
      release();
    } catch {
      // already released or taken over: nothing left to remove
    }
  };
}

function acquire(dataDir: string, lockPath: string, refusal: () => Error): () => void {
  const deadline = Date.now() + LOCK_STALE_MS + 2 * POLL_MS;
  let announced = false;
  for (;;) {
    try {
      return lockSync(dataDir, {
        lockfilePath: lockPath,
        stale: LOCK_STALE_MS,
        update: UPDATE_MS,
        // Another process took the lock (ours went stale: the event loop was blocked for 10 s). Two
        // writers would corrupt the database, so this one stops.
        onCompromised: (error) => {
          process.stderr.write(`Lost the lock on the embedded database in ${dataDir} (${error.message}); stopping.\n`);
          process.exit(70);
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      if (Date.now() >= deadline) throw refusal();
      if (!announced) {
        process.stderr.write(`The embedded database in ${dataDir} is locked; waiting up to ${LOCK_STALE_MS / 1000} s in case its holder has stopped.\n`);
        announced = true;
      }
      // Start-up has nothing else to do yet; openDatabase expects the lock synchronously.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, POLL_MS);
    }
  }
}

/** Ramp before proper-lockfile wrote a pid file at this path; it cannot tell a live holder, so it goes. */
function removeLegacyLockFile(lockPath: string) {
  try {
    if (lstatSync(lockPath).isFile()) rmSync(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function readOwner(ownerPath: string): string {
  try {
    return readFileSync(ownerPath, 'utf8').trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}
