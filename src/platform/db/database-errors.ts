import { ChainUnavailableError } from '../../domain/errors.js';

/**
 * Errors that mean "the database cannot be reached right now", as opposed to a bug or a refused
 * statement: the caller gets 503 `database_unavailable` and may retry (with the same
 * Idempotency-Key for writes), instead of a 500 or a hang (docs/operations/failure-behaviour.md).
 */

// SQLSTATE classes and codes: connection exceptions (08), operator intervention (57P01 admin
// shutdown, 57P02 crash shutdown, 57P03 cannot connect now), statement timeout (57014), too many
// connections (53300).
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-5]|57014|53300)$/;
// Socket-level failures reported by node and pg before any SQLSTATE exists.
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Client was closed and is not queryable|Connection ended unexpectedly|terminating connection|the database system is (starting up|shutting down|in recovery mode)|statement timeout/i;

/**
 * Begins the message of a wait for a connection that timed out while the database still answered
 * (pg-pool-guard.ts): the instance is saturated, not the database unreachable. Found by its words,
 * because the drivers above pg wrap the error and keep its message.
 */
export const POOL_SATURATED = 'database connection pool saturated';

/** Every connection stayed busy past the acquire timeout while the database answered: 503 `overloaded`, not an outage. */
export function isPoolSaturated(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { message, cause } = current as { message?: unknown; cause?: unknown };
    if (typeof message === 'string' && message.includes(POOL_SATURATED)) return true;
    current = cause;
  }
  return false;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  if (isPoolSaturated(error)) return false;
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    // A chain's node that refused or dropped a connection fails with the same socket errors as PostgreSQL: the
    // chain's outage is reported as the chain's (503 chain_unavailable), whatever its cause holds.
    if (current instanceof ChainUnavailableError) return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    current = cause;
  }
  return false;
}

/** Seconds a client should wait before retrying after a `database_unavailable` answer. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** Background work logs an outage, the database's or a chain's, as a warning (it retries by itself); anything else is an error. */
export const failureLevel = (error: unknown): 'warn' | 'error' => (isDatabaseUnavailable(error) || error instanceof ChainUnavailableError ? 'warn' : 'error');
