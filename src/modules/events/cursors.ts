import type { Actor } from '../../domain/environment.js';
import { sealer } from '../../platform/security/sealed.js';

/** The partner and environment a cursor is sealed to. */
type Tenant = Pick<Actor, 'partnerId' | 'environment'>;

/** `after` that stands before the first event: the same for everyone, it points at no event and so tells nothing. */
export const STREAM_START = '0';

const POSITION_BYTES = 8;
/** 24 bytes (tag and sealed position) in base64url: exactly 32 characters. */
const SEALED = /^[A-Za-z0-9_-]{32}$/;

/** Whether a string has the shape of a cursor (checked before the tenant is known, with the other inputs). */
export const looksLikeCursor = (value: string) => value === STREAM_START || SEALED.test(value);

/**
 * Event cursors as partners see them. Inside, an event's position is the outbox's global bigint,
 * which gives commit order and exact resume; handed out as it is, it would show platform-wide volume
 * (a new partner's first event at 43). So each position leaves sealed to its tenant (platform/security/sealed.ts:
 * deterministic, so an event keeps one cursor however often it is read; authenticated, so a cursor of
 * another partner or environment, another key's or a forged one opens to nothing). Cursors are not
 * comparable: order is the stream's, never the token's.
 */
export interface EventCursors {
  /** The cursor of an outbox position, for the tenant that owns the event there. */
  seal(tenant: Tenant, position: string): string;
  /** The outbox position a cursor stands for, or null when it was not sealed to this tenant with this key. */
  open(tenant: Tenant, cursor: string): string | null;
}

export function eventCursors(key: Buffer): EventCursors {
  const sealed = sealer(key, 'ramp event cursor');
  const contextOf = (tenant: Tenant) => `${tenant.partnerId}/${tenant.environment}/`;
  return {
    seal(tenant, position) {
      const plain = Buffer.alloc(POSITION_BYTES);
      plain.writeBigUInt64BE(BigInt(position));
      return sealed.seal(contextOf(tenant), plain);
    },
    open(tenant, cursor) {
      return sealed.open(contextOf(tenant), cursor, POSITION_BYTES)?.readBigUInt64BE().toString() ?? null;
    },
  };
}
