import { Mutex } from 'async-mutex';
import { PGliteDriver } from 'kysely';

/**
 * PGlite is one connection. Kysely's PGlite driver hands that connection to every caller at
 * once, so a request's query could run inside another request's open transaction. We give it
 * the semantics of a pool of size one: a caller holds the connection until it releases it,
 * and a transaction holds it from BEGIN to COMMIT.
 */
const locks = new WeakMap<PGliteDriver, Mutex>();
const unlocks = new WeakMap<PGliteDriver, () => void>();
const lockOf = (driver: PGliteDriver) => {
  let lock = locks.get(driver);
  if (!lock) {
    lock = new Mutex();
    locks.set(driver, lock);
  }
  return lock;
};

const acquire = PGliteDriver.prototype.acquireConnection;
const release = PGliteDriver.prototype.releaseConnection;
let installed = false;

export function serializePgliteConnections(): void {
  if (installed) return;
  installed = true;
  PGliteDriver.prototype.acquireConnection = async function (this: PGliteDriver) {
    const unlock = await lockOf(this).acquire();
    try {
      const connection = await acquire.call(this);
      unlocks.set(this, unlock);
      return connection;
    } catch (error) {
      unlock();
      throw error;
    }
  };
  PGliteDriver.prototype.releaseConnection = async function (this: PGliteDriver) {
    try {
      await release.call(this);
    } finally {
      const unlock = unlocks.get(this);
      unlocks.delete(this);
      unlock?.();
    }
  };
}
