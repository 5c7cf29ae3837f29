import { stringifyDocument } from '@urql/core';
import type { Api } from './api.js';
import { LatestEventsDocument, type LiveEventsSubscription, LiveEventsDocument } from './gql/graphql.js';
import { subscribePayload } from './trusted-documents.js';

export type LiveEvent = LiveEventsSubscription['events'];
export type StreamState = { kind: 'connecting' } | { kind: 'live' } | { kind: 'reconnecting'; after: string | null; attempt: number; reason: string };

/** An event as "Latest events" lists it: what the stream delivers, or what was read before it started. */
export type RecentEvent = Pick<LiveEvent, 'id' | 'cursor' | 'type' | 'occurredAt'>;

/**
 * Where the stream stands now, so rows loaded after this and events after it leave no gap, and the `last` events
 * before it, newest first (the list would otherwise stay empty until something happened).
 */
export async function latestEvents(api: Api, last: number): Promise<{ after: string; recent: RecentEvent[] }> {
  const result = await api.client.query(LatestEventsDocument, { last }, { requestPolicy: 'network-only' }).toPromise();
  if (result.error) throw result.error;
  const edges = result.data?.events?.edges ?? [];
  return { after: edges.at(-1)?.cursor ?? '0', recent: edges.map((edge) => edge.node).reverse() };
}

/**
 * Follows the partner's events over graphql-ws. When the socket drops (network, server restart,
 * browser offline) it subscribes again with `after:` the last cursor it received, so Ramp replays
 * what happened meanwhile before going live: nothing missed, nothing polled.
 */
export function followEvents(api: Api, after: string | null, onEvent: (event: LiveEvent) => void, onState: (state: StreamState) => void): () => void {
  let cursor = after;
  let stopped = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let unsubscribe = () => {};
  const query = stringifyDocument(LiveEventsDocument);

  const open = () => {
    if (stopped) return;
    unsubscribe();
    onState(attempt === 0 ? { kind: 'connecting' } : { kind: 'reconnecting', after: cursor, attempt, reason: 'connecting again' });
    unsubscribe = api.socket.subscribe<LiveEventsSubscription>(subscribePayload(query, { after: cursor }), {
      next: (result) => {
        const event = result.data?.events;
        if (!event) return;
        cursor = event.cursor;
        onEvent(event);
      },
      error: (error) => retry(describe(error)),
      complete: () => retry('the server ended the stream'),
    });
  };
  const retry = (reason: string) => {
    if (stopped) return;
    attempt += 1;
    onState({ kind: 'reconnecting', after: cursor, attempt, reason });
    clearTimeout(timer);
    // 0.5 s, 1 s, 2 s … up to 10 s; at once when the browser says it is back online.
    timer = setTimeout(open, navigator.onLine ? Math.min(10_000, 250 * 2 ** attempt) : 10_000);
  };
  const online = () => {
    clearTimeout(timer);
    if (attempt > 0) open();
  };
  // The browser knows first that the network went away: drop the socket instead of waiting for a ping to fail.
  const offline = () => api.socket.terminate();

  const unlisten = api.socket.on('connected', () => {
    attempt = 0;
    onState({ kind: 'live' });
  });
  addEventListener('online', online);
  addEventListener('offline', offline);
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    removeEventListener('online', online);
    removeEventListener('offline', offline);
    unlisten();
    unsubscribe();
  };
}

const describe = (error: unknown): string => {
  if (error instanceof CloseEvent) return `the connection closed (${error.code}${error.reason ? ` ${error.reason}` : ''})`;
  if (Array.isArray(error)) return error.map((e: { message?: string }) => e.message).join('; ');
  return error instanceof Error ? error.message : 'the connection failed';
};
