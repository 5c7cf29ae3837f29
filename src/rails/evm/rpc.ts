import { BaseError, HttpRequestError, SocketClosedError, type Transport, TimeoutError, WebSocketRequestError, http } from 'viem';
import { ChainUnavailableError } from '../../domain/errors.js';
import type { Network } from '../../domain/money.js';

/**
 * How Ramp speaks JSON-RPC: every request bounded in time, and a node that does not answer reported as the chain's
 * outage (503 `chain_unavailable`), never mistaken for the database's or for a bug.
 */

/**
 * One node as Ramp reaches it: its URL, and how long one request to it may take (CHAIN_RPC_TIMEOUT_MS). Every client
 * is built from one, so each Ramp's adapters keep the bound of its own configuration, whatever else runs in the process.
 */
export interface RpcEndpoint {
  url: string;
  timeoutMs: number;
}

/**
 * One RPC endpoint, each request given up after its timeout and never retried here: a retry of a hung node multiplies
 * the wait, and the callers (jobs on their next tick, clients after `Retry-After`) retry anyway.
 */
export const rpcTransport = (rpc: RpcEndpoint): Transport => http(rpc.url, { retryCount: 0, timeout: rpc.timeoutMs });

/** HTTP statuses of an endpoint that is down or refusing work, as opposed to one answering the request. */
const unavailableStatus = (status: number | undefined) => status === undefined || status === 408 || status === 429 || status >= 500;

/** Whether a viem error says the node did not answer: a timeout, a failed or refused connection, an error status. */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return !!error.walk(
    (cause) =>
      cause instanceof TimeoutError ||
      cause instanceof SocketClosedError ||
      cause instanceof WebSocketRequestError ||
      (cause instanceof HttpRequestError && unavailableStatus(cause.status)),
  );
}

/** Rethrows a failure to reach `network`'s node as ChainUnavailableError, anything else as it is. */
export function chainFailure(network: Network | null, error: unknown): never {
  // The cause is kept for the logs; nothing reads an outage's kind from it (a refused socket is no database's).
  if (isUnreachable(error)) throw Object.assign(new ChainUnavailableError(network), { cause: error });
  throw error;
}

/**
 * The same object, each of its methods reporting a node that does not answer as ChainUnavailableError: the adapter's
 * callers see one typed outage whatever viem call failed, and keep every other error as it was.
 */
export function reportingOutages<T extends object>(network: Network, adapter: T): T {
  const wrapped = Object.entries(adapter).map(([name, member]) => {
    if (typeof member !== 'function') return [name, member];
    return [
      name,
      (...args: unknown[]) => {
        try {
          const result = member(...args);
          return result instanceof Promise ? result.catch((error: unknown) => chainFailure(network, error)) : result;
        } catch (error) {
          return chainFailure(network, error);
        }
      },
    ];
  });
  return Object.fromEntries(wrapped) as T;
}
