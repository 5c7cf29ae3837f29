import { createCipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Actor } from '../../domain/environment.js';

/** The partner and environment a cursor is sealed to. */
type Tenant = Pick<Actor, 'partnerId' | 'environment'>;

/** `after` that stands before the first event: the same for everyone, it points at no event and so tells nothing. */
export const STREAM_START = '0';

const TAG_BYTES = 16;
const POSITION_BYTES = 8;
/** 24 bytes (tag and sealed position) in base64url: exactly 32 characters. */
const SEALED = /^[A-Za-z0-9_-]{32}$/;

/** Whether a string has the shape of a cursor (checked before the tenant is known, with the other inputs). */
export const looksLikeCursor = (value: string) => value === STREAM_START || SEALED.test(value);

/**
 * Event cursors as partners see them. Inside, an event's position is the outbox's global bigint,
 * which gives commit order and exact resume; handed out as it is, it would show platform-wide volume
 * (a new partner's first event at 43). So each position leaves sealed to its tenant: an HMAC of
 * tenant and position is the tag, and the position is encrypted (AES-256-CTR) with the tag as its
 * counter block — the synthetic-IV construction of AES-SIV (RFC 5297). It is deterministic, so an
 * event keeps one cursor however often it is read, and authenticated, so a cursor of another partner
 * or environment, another key's or a forged one opens to nothing. Cursors are not comparable: order
 * is the stream's, never the token's.
 */
export interface EventCursors {
  /** The cursor of an outbox position, for the tenant that owns the event there. */
  seal(tenant: Tenant, position: string): string;
  /** The outbox position a cursor stands for, or null when it was not sealed to this tenant with this key. */
  open(tenant: Tenant, cursor: string): string | null;
}

export function eventCursors(key: Buffer): EventCursors {
  const subkey = (purpose: string) => Buffer.from(hkdfSync('sha256', key, '', `ramp event cursor ${purpose}`, 32));
  const macKey = subkey('tag');
  const encryptionKey = subkey('encryption');

  const tagOf = (tenant: Tenant, position: Buffer) =>
    createHmac('sha256', macKey).update(`${tenant.partnerId}/${tenant.environment}/`).update(position).digest().subarray(0, TAG_BYTES);
  // CTR is its own inverse: the same call seals and opens.
  const ctr = (tag: Buffer, data: Buffer) => {
    const cipher = createCipheriv('aes-256-ctr', encryptionKey, tag);
    return Buffer.concat([cipher.update(data), cipher.final()]);
  };

  return {
    seal(tenant, position) {
      const plain = Buffer.alloc(POSITION_BYTES);
      plain.writeBigUInt64BE(BigInt(position));
      const tag = tagOf(tenant, plain);
      return Buffer.concat([tag, ctr(tag, plain)]).toString('base64url');
    },
    open(tenant, cursor) {
      if (!SEALED.test(cursor)) return null;
      const sealed = Buffer.from(cursor, 'base64url');
      const tag = sealed.subarray(0, TAG_BYTES);
      const plain = ctr(tag, sealed.subarray(TAG_BYTES));
      return timingSafeEqual(tag, tagOf(tenant, plain)) ? plain.readBigUInt64BE().toString() : null;
    },
  };
}
