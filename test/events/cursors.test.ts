import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { eventCursors } from '../../src/modules/events/cursors.js';

const cursors = eventCursors(randomBytes(32));
const alice = { partnerId: randomUUID(), environment: 'sandbox' as const };
const bob = { partnerId: randomUUID(), environment: 'sandbox' as const };

describe('event cursors', () => {
  it('opens what it sealed, for the same partner and environment', () => {
    for (const position of ['1', '43', '9007199254740993', '9223372036854775807']) {
      expect(cursors.open(alice, cursors.seal(alice, position))).toBe(position);
    }
  });

  it('gives an event one cursor however often it is sealed', () => {
    expect(cursors.seal(alice, '43')).toBe(cursors.seal(alice, '43'));
  });

  it('opens to nothing for another partner, the other environment, or another key', () => {
    const sealed = cursors.seal(alice, '43');
    expect(cursors.open(bob, sealed)).toBeNull();
    expect(cursors.open({ ...alice, environment: 'production' }, sealed)).toBeNull();
    expect(eventCursors(randomBytes(32)).open(alice, sealed)).toBeNull();
  });

  it('opens to nothing once any character is changed, and refuses what is not a cursor', () => {
    const sealed = cursors.seal(alice, '43');
    for (let i = 0; i < sealed.length; i++) {
      const other = sealed[i] === 'A' ? 'B' : 'A';
      expect(cursors.open(alice, sealed.slice(0, i) + other + sealed.slice(i + 1)), `character ${i}`).toBeNull();
    }
    for (const forged of ['43', '', sealed.slice(1), `${sealed}A`, sealed.replace(/./, '+')]) expect(cursors.open(alice, forged)).toBeNull();
  });

  it('shows neither the position nor the order: same length, no digits of it, no order among cursors', () => {
    const positions = Array.from({ length: 50 }, (_, i) => String(1000 + i));
    const sealed = positions.map((p) => cursors.seal(alice, p));
    expect(new Set(sealed.map((c) => c.length))).toEqual(new Set([32]));
    expect(cursors.seal(alice, '1')).toHaveLength(32);
    for (const [i, cursor] of sealed.entries()) {
      const bytes = Buffer.from(cursor, 'base64url');
      const plain = Buffer.alloc(8);
      plain.writeBigUInt64BE(BigInt(positions[i]!));
      expect(cursor).not.toContain(positions[i]);
      expect(bytes.includes(plain)).toBe(false);
    }
    // Fifty random tokens come out in commit order (or its reverse) by chance once in 50! tries.
    expect([...sealed].sort()).not.toEqual(sealed);
    expect([...sealed].sort().reverse()).not.toEqual(sealed);
    // The same position is another token for another partner: nothing to compare across partners.
    expect(cursors.seal(bob, '1000')).not.toBe(sealed[0]);
  });

  it('takes its key from EVENT_CURSOR_KEY, or derives one from WEBHOOK_SECRET_KEY that is not that key', () => {
    const own = randomBytes(32);
    expect(loadConfig({ EVENT_CURSOR_KEY: own.toString('base64') }).eventCursorKey).toEqual(own);
    const webhookKey = randomBytes(32).toString('base64');
    const derived = loadConfig({ WEBHOOK_SECRET_KEY: webhookKey }).eventCursorKey;
    expect(derived).toHaveLength(32);
    expect(derived).not.toEqual(Buffer.from(webhookKey, 'base64'));
    expect(loadConfig({ WEBHOOK_SECRET_KEY: webhookKey }).eventCursorKey).toEqual(derived);
    expect(() => loadConfig({ EVENT_CURSOR_KEY: 'short' })).toThrow(/EVENT_CURSOR_KEY: must be 32 bytes/);
  });
});
