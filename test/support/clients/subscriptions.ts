import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';

/** The official graphql-ws client, authenticated at connection_init with an API key. */
export function wsClient(baseUrl: string, key: string): Client {
  return createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 0,
  });
}

export interface Subscription<T> {
  items: T[];
  errors: unknown[];
  stop(): void;
}

/** Subscribes and collects every item of the root field `field` as it arrives. */
export function subscribe<T = any>(client: Client, query: string, variables: Record<string, unknown>, field: string): Subscription<T> {
  const items: T[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe<Record<string, T>>(
    { query, variables },
    {
      next: (result) => {
        if (result.errors) errors.push(...result.errors);
        if (result.data) items.push(result.data[field]!);
      },
      error: (error) => errors.push(error),
      complete: () => undefined,
    },
  );
  return { items, errors, stop };
}
