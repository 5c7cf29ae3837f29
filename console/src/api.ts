import { Client, cacheExchange, fetchExchange, mapExchange, subscriptionExchange } from '@urql/core';
import { type Client as SocketClient, createClient as createSocketClient } from 'graphql-ws';
import { naming, subscribePayload } from './trusted-documents.js';

/** The two connections of one signed-in tab: urql over HTTP for queries and mutations, graphql-ws for the events stream. */
export interface Api {
  client: Client;
  socket: SocketClient;
  /** Calls `listener` with the key's GraphQL cost bucket each time an answer reports it; returns the unsubscribe. */
  onBudget(listener: (budget: Budget) => void): () => void;
  close(): void;
}

/** `extensions.cost.throttleStatus` of Ramp's GraphQL answers: the key's cost bucket after the operation. */
export interface Budget {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

/** Refusals worth waiting out: THROTTLED (the cost bucket) and RATE_LIMITED, both sent before anything ran. */
const RETRIED_STATUS = 429;
/** How often one operation is sent again after a refusal, and the longest wait the console accepts. */
const MAX_RETRIES = 5;
const MAX_WAIT_SECONDS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `fetch` that waits out a 429 and sends the same request again: a throttled operation did nothing, so
 * sending it again is safe, mutations included. It waits the `Retry-After` it is given (1 s when absent),
 * so a burst of screens drains the bucket at its refill rate instead of showing "Throttled" and giving up.
 */
export async function fetchWaitingOutThrottling(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  for (let retry = 0; ; retry++) {
    const response = await fetch(input, init);
    if (response.status !== RETRIED_STATUS || retry >= MAX_RETRIES) return response;
    const seconds = Number(response.headers.get('retry-after'));
    await sleep(Math.min(MAX_WAIT_SECONDS, Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
  }
}

const socketUrl = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;

/** A ping left unanswered this long means the connection is dead even if no close arrived (a cut cable, a sleeping laptop). */
const PONG_TIMEOUT_MS = 5_000;

export function connect(key: string): Api {
  const authorization = `Bearer ${key}`;
  let open: WebSocket | undefined;
  let pongDue: ReturnType<typeof setTimeout> | undefined;
  const socket = createSocketClient({
    url: socketUrl(),
    connectionParams: { authorization },
    lazy: true,
    // No silent retry inside graphql-ws: it would resubscribe with the first `after`. The events
    // stream (live-events.ts) reconnects itself, resuming after the last cursor it saw.
    retryAttempts: 0,
    keepAlive: 10_000,
    // graphql-ws's recipe for dead connections: close the socket when a ping gets no pong in time.
    on: {
      connected: (connected) => {
        open = connected as WebSocket;
      },
      ping: (received) => {
        if (!received) pongDue = setTimeout(() => open?.readyState === WebSocket.OPEN && open.close(4408, 'Request Timeout'), PONG_TIMEOUT_MS);
      },
      pong: (received) => {
        if (received) clearTimeout(pongDue);
      },
    },
  });
  const budgetListeners = new Set<(budget: Budget) => void>();
  const client = new Client({
    url: '/graphql',
    // POST with JSON for every operation: Ramp's CSRF prevention refuses simple GET requests.
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: () => ({ headers: { authorization } }),
    // Each operation by its hash: the console's documents are trusted documents (trusted-documents.ts).
    fetch: (input, init) => fetchWaitingOutThrottling(input, init && { ...init, body: naming(init.body) }),
    exchanges: [
      cacheExchange,
      // Every HTTP answer carries the bucket (absent when the operator turned the budget off).
      mapExchange({
        onResult(result) {
          const budget = (result.extensions?.cost as { throttleStatus?: Budget } | undefined)?.throttleStatus;
          if (budget) for (const listener of budgetListeners) listener(budget);
        },
      }),
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: socket.subscribe(subscribePayload(request.query ?? '', request.variables ?? {}), sink) }),
        }),
      }),
      fetchExchange,
    ],
  });
  const onBudget = (listener: (budget: Budget) => void) => {
    budgetListeners.add(listener);
    return () => void budgetListeners.delete(listener);
  };
  return { client, socket, onBudget, close: () => void socket.dispose() };
}
