import { describe, expect, it } from 'vitest';
import { streamEvents } from '../../src/modules/events/stream.js';
import type { Notifier } from '../../src/platform/notifier.js';

/** An in-memory outbox and notifier: enough to drive the stream's replay, follow and stop logic. */
function outbox() {
  const events: { cursor: string }[] = [];
  const listeners = new Set<(cursor: string) => void>();
  const notifier: Notifier = {
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => undefined,
  };
  return {
    notifier,
    listeners,
    readPage: async (after: string) => events.filter((e) => BigInt(e.cursor) > BigInt(after)).slice(0, 2),
    commit(cursor: string, notify = true) {
      events.push({ cursor });
      if (notify) for (const l of listeners) l(cursor);
    },
  };
}

describe('streamEvents', () => {
  it('replays in pages, then follows new events, without repeating or skipping any', async () => {
    const db = outbox();
    for (const c of ['1', '2', '3']) db.commit(c);
    const stream = streamEvents({ after: '0', pageSize: 2, notifier: db.notifier, readPage: db.readPage, present: (e) => e });
    const seen = [(await stream.next()).value, (await stream.next()).value, (await stream.next()).value].map((e) => e.cursor);
    const next = stream.next();
    db.commit('4');
    seen.push((await next).value.cursor);
    expect(seen).toEqual(['1', '2', '3', '4']);
    await stream.return!();
  });

  it('finds an event whose notification was lost at the next wake-up (the catch-up poll)', async () => {
    const db = outbox();
    const stream = streamEvents({ after: '0', pageSize: 2, notifier: db.notifier, readPage: db.readPage, present: (e) => e });
    const next = stream.next();
    db.commit('1', false);
    await new Promise((r) => setTimeout(r, 20));
    for (const l of db.listeners) l('1'); // what the catch-up read announces
    expect((await next).value.cursor).toBe('1');
    await stream.return!();
  });

  it('ends at once when the client leaves while it waits, and stops listening', async () => {
    const db = outbox();
    const stream = streamEvents({ after: '0', pageSize: 2, notifier: db.notifier, readPage: db.readPage, present: (e) => e });
    const pending = stream.next();
    await new Promise((r) => setTimeout(r, 10));
    await stream.return!();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(db.listeners.size).toBe(0);
  });

  it('stops listening when the client leaves before the first item', async () => {
    const db = outbox();
    const stream = streamEvents({ after: '0', pageSize: 2, notifier: db.notifier, readPage: db.readPage, present: (e) => e });
    await stream.return!();
    expect(db.listeners.size).toBe(0);
  });
});
