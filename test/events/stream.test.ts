import { describe, expect, it } from 'vitest';
import { createEventFanout, type Interest, type RoutedRow } from '../../src/modules/events/fanout.js';
import { SLOW_CONSUMER, SlowConsumerError, streamEvents } from '../../src/modules/events/stream.js';
import type { Notifier } from '../../src/platform/messaging/notifier.js';

const ACME: Interest = { partnerId: 'acme', environment: 'sandbox' };

/** An in-memory outbox and notifier: enough to drive the fan-out and the streams' replay, follow and stop logic. */
function outbox(pageSize = 2) {
  const rows: RoutedRow[] = [];
  const listeners = new Set<(cursor: string) => void>();
  const reads = { shared: 0, own: 0 };
  const notifier: Notifier = {
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => undefined,
  };
  const after = (position: string) => rows.filter((r) => BigInt(r.cursor) > BigInt(position));
  const fanout = createEventFanout({
    notifier,
    pageSize,
    outbox: {
      readAfter: async (position, limit) => {
        reads.shared++;
        return after(position).slice(0, limit);
      },
      head: async () => rows.at(-1)?.cursor ?? '0',
    },
  });
  const mine = (interest: Interest) => (r: RoutedRow) =>
    r.partnerId === interest.partnerId && r.environment === interest.environment && (!interest.types || interest.types.includes(r.type));
  return {
    fanout,
    listeners,
    reads,
    stream(from: string, options: { interest?: Interest; bufferSize?: number; stallMs?: number; disconnect?: (code: number, reason: string) => void } = {}) {
      const interest = options.interest ?? ACME;
      return streamEvents({
        fanout,
        interest,
        after: from,
        pageSize,
        bufferSize: options.bufferSize ?? 100,
        disconnect: options.disconnect,
        stallMs: options.stallMs,
        present: (r) => r,
        readPage: async (position) => {
          reads.own++;
          return after(position).filter(mine(interest)).slice(0, pageSize);
        },
      });
    },
    commit(cursor: string, row: Partial<RoutedRow> = {}, notify = true) {
      rows.push({ cursor, ...ACME, type: 'customer.created', entityId: 'e', ...row });
      if (notify) for (const l of listeners) l(cursor);
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 5));
const cursorsOf = async (stream: AsyncIterator<RoutedRow>, count: number) => {
  const seen: string[] = [];
  for (let i = 0; i < count; i++) seen.push((await stream.next()).value.cursor);
  return seen;
};

describe('streamEvents over the shared fan-out', () => {
  it('replays in pages, then follows new events, without repeating or skipping any', async () => {
    const db = outbox();
    for (const c of ['1', '2', '3']) db.commit(c);
    const stream = db.stream('0');
    const seen = await cursorsOf(stream, 3);
    const next = stream.next();
    db.commit('4');
    seen.push((await next).value.cursor);
    expect(seen).toEqual(['1', '2', '3', '4']);
    await stream.return!();
  });

  it('joins live without a gap or a repeat when events commit while it replays', async () => {
    const db = outbox();
    for (const c of ['1', '2', '3']) db.commit(c);
    const stream = db.stream('0');
    expect(await cursorsOf(stream, 1)).toEqual(['1']);
    // Committed (and fanned out to its buffer) while the replay is still reading pages.
    for (const c of ['4', '5']) db.commit(c);
    await tick();
    const next = cursorsOf(stream, 5);
    await tick();
    db.commit('6');
    expect(await next).toEqual(['2', '3', '4', '5', '6']);
    await stream.return!();
  });

  it('reads the outbox once per wake-up for all its subscribers, whatever their number', async () => {
    const db = outbox(100);
    const streams = Array.from({ length: 50 }, () => db.stream('0'));
    const first = streams.map((s) => s.next());
    await tick();
    const before = { ...db.reads };
    db.commit('1');
    expect((await Promise.all(first)).map((r) => r.value.cursor)).toEqual(Array(50).fill('1'));
    expect(db.reads.shared - before.shared).toBe(1);
    expect(db.reads.own - before.own).toBe(0);
    for (const s of streams) await s.return!();
    expect(db.fanout.size).toBe(0);
  });

  it("hands a subscriber only its own tenant's events of the types it asked for", async () => {
    const db = outbox();
    const stream = db.stream('0', { interest: { ...ACME, types: ['customer.created'] } });
    const next = stream.next();
    await tick();
    db.commit('1', { partnerId: 'globex' });
    db.commit('2', { environment: 'production' });
    db.commit('3', { type: 'customer.updated' });
    db.commit('4');
    expect((await next).value.cursor).toBe('4');
    await stream.return!();
  });

  it('finds an event whose notification was lost at the next wake-up (the catch-up poll)', async () => {
    const db = outbox();
    const stream = db.stream('0');
    const next = stream.next();
    await tick();
    db.commit('1', {}, false);
    await tick();
    for (const l of db.listeners) l('1'); // what the catch-up read announces
    expect((await next).value.cursor).toBe('1');
    await stream.return!();
  });

  it('reads a burst larger than its buffer from the outbox itself, and misses nothing', async () => {
    const db = outbox(100);
    const stream = db.stream('0', { bufferSize: 3 });
    const first = stream.next();
    await tick();
    db.commit('1');
    expect((await first).value.cursor).toBe('1');
    const before = db.reads.own;
    for (const c of ['2', '3', '4', '5']) db.commit(c);
    await tick();
    expect(await cursorsOf(stream, 4)).toEqual(['2', '3', '4', '5']);
    expect(db.reads.own).toBeGreaterThan(before);
    const next = stream.next();
    await tick();
    db.commit('6');
    expect((await next).value.cursor).toBe('6');
    await stream.return!();
  });

  it('disconnects a subscriber whose buffer overflows after it took no event for stallMs, and forgets it', async () => {
    const db = outbox(100);
    const closes: [number, string][] = [];
    const stream = db.stream('0', { bufferSize: 3, stallMs: 50, disconnect: (code, reason) => closes.push([code, reason]) });
    const first = stream.next();
    await tick();
    db.commit('1');
    expect((await first).value.cursor).toBe('1');
    // The client takes nothing more while eight events arrive.
    for (const c of ['2', '3', '4', '5']) db.commit(c);
    await tick();
    expect(closes).toEqual([]);
    await new Promise((r) => setTimeout(r, 60));
    for (const c of ['6', '7', '8', '9']) db.commit(c);
    await tick();
    expect(closes).toEqual([[SLOW_CONSUMER.code, SLOW_CONSUMER.reason]]);
    expect(db.fanout.size).toBe(0);
    await expect(stream.next()).rejects.toBeInstanceOf(SlowConsumerError);
  });

  it('keeps a subscriber that is still replaying when its live buffer overflows, and misses nothing', async () => {
    const db = outbox(2);
    for (const c of ['1', '2', '3']) db.commit(c);
    const closes: unknown[] = [];
    const stream = db.stream('0', { bufferSize: 2, disconnect: (...close) => closes.push(close) });
    expect(await cursorsOf(stream, 1)).toEqual(['1']);
    for (const c of ['4', '5', '6', '7']) db.commit(c);
    await tick();
    expect(await cursorsOf(stream, 6)).toEqual(['2', '3', '4', '5', '6', '7']);
    const next = stream.next();
    await tick();
    db.commit('8');
    expect((await next).value.cursor).toBe('8');
    expect(closes).toEqual([]);
    await stream.return!();
  });

  it('ends at once when the client leaves while it waits, and leaves the fan-out', async () => {
    const db = outbox();
    const stream = db.stream('0');
    const pending = stream.next();
    await tick();
    expect(db.fanout.size).toBe(1);
    await stream.return!();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(db.fanout.size).toBe(0);
  });

  it('leaves the fan-out when the client leaves before the first item', async () => {
    const db = outbox();
    const stream = db.stream('0');
    await stream.return!();
    await tick();
    expect(db.fanout.size).toBe(0);
  });
});
