import type { Client, ExecutionResult } from 'graphql-ws';

/**
 * Exactly-once event processing over graphql-ws, through the client's own retries.
 *
 * When its connection drops, the graphql-ws client reconnects (retryAttempts, 5 by default) and
 * sends every active subscription again with the payload it was first given. Ramp's subscriptions
 * resume by cursor, so the `after` it sends again must be the last cursor you processed, not the
 * one you started with. The client serializes the payload anew at each (re)send, so a getter in
 * `variables` computes it then: a retry resumes exactly after the last event handed to `onEvent`,
 * which Ramp replays in cursor order before going live. Nothing is skipped (a gap would be
 * replayed) and nothing repeats (everything up to `after` is behind the cursor).
 *
 * Keep `lastCursor` where you keep what `onEvent` did (a database row, a file) to resume the same
 * way after your own process restarts.
 */
export interface ResumableOptions<T> {
  query: string;
  /** The operation's root field, whose result carries `cursor`: `events` or `transferUpdated`. */
  field: string;
  /** Other variables of the operation (types, id). */
  variables?: Record<string, unknown>;
  /** Where to start: a cursor you processed, "0" for everything, undefined for only what comes next. */
  after?: string;
  /** Called once per event, in order; the event counts as processed when it returns. */
  onEvent: (event: T & { cursor: string }) => void;
  onError?: (error: unknown) => void;
}

export function resumableSubscription<T>(client: Client, options: ResumableOptions<T>): { lastCursor: () => string | undefined; stop: () => void } {
  let lastCursor = options.after;
  const variables = {
    ...options.variables,
    // Read each time the client sends the subscription: at the start and at every retry.
    get after() {
      return lastCursor;
    },
  };
  const stop = client.subscribe<Record<string, T & { cursor: string }>>(
    { query: options.query, variables },
    {
      next(result: ExecutionResult<Record<string, T & { cursor: string }>>) {
        const event = result.data?.[options.field];
        if (result.errors?.length || !event) return options.onError?.(result.errors);
        options.onEvent(event);
        lastCursor = event.cursor;
      },
      error: (error) => options.onError?.(error),
      complete: () => undefined,
    },
  );
  return { lastCursor: () => lastCursor, stop };
}
