import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/sql';
import { UnauthenticatedError } from '../domain/errors.js';
import type { Actor, Environment } from '../domain/environment.js';

const KEY_PATTERN = /^rk_(sandbox|live)_([A-Za-z0-9]{8})([A-Za-z0-9]{32})$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomToken(length: number): string {
  // Rejection-free mapping: 248 = 62 * 4, so bytes below 248 map uniformly onto the alphabet.
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

const hashSecret = (key: string) => createHash('sha256').update(key).digest('hex');
const envTag = (environment: Environment) => (environment === 'production' ? 'live' : 'sandbox');

/** A new API key: the clear key (shown once), its lookup prefix and the hash we store. */
export function mintApiKey(environment: Environment): { key: string; prefix: string; secretHash: string } {
  const prefix = `rk_${envTag(environment)}_${randomToken(8)}`;
  const key = prefix + randomToken(32);
  return { key, prefix, secretHash: hashSecret(key) };
}

const unauthenticated = (message: string) => new UnauthenticatedError('unauthenticated', message);

/** `Bearer <key>` or the bare key. */
export function keyFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.trim();
  return /^bearer\s+/i.test(value) ? value.replace(/^bearer\s+/i, '').trim() : value;
}

/** A stored API key, as authentication needs it. */
export interface StoredApiKey {
  id: string;
  partnerId: string;
  environment: Environment;
  secretHash: string;
  lastUsedAt: Date | null;
}

/** The API keys, as authentication needs them; the partners module, which owns keys, provides them. */
export interface ApiKeyStore {
  /** The unrevoked key with this prefix. */
  find(em: EntityManager, prefix: string): Promise<StoredApiKey | null>;
  /** Records that the key authenticated; a no-op when another request or instance did so in the last minute. */
  markUsed(em: EntityManager, id: string): Promise<void>;
  /** Which of these keys are still unrevoked (an open subscription whose key is not gets closed). */
  activeAmong(em: EntityManager, ids: readonly string[]): Promise<Set<string>>;
}

/** `last used` is kept to the minute: a busy key writes once a minute, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves an `Authorization` header to the calling partner and environment, or fails with 401. */
export type Authenticate = (em: EntityManager, header: string | undefined) => Promise<Actor>;

export function apiKeyAuthentication(keys: ApiKeyStore): Authenticate {
  return async (em, header) => {
    const key = keyFromHeader(header);
    if (!key) throw unauthenticated('An API key is required: send `Authorization: Bearer <key>`');
    const match = KEY_PATTERN.exec(key);
    if (!match) throw unauthenticated('The API key is not valid');
    const found = await keys.find(em, `rk_${match[1]}_${match[2]}`);
    // Hashed and compared even when no key has the prefix, so timing does not tell which prefixes exist.
    const expected = Buffer.from(found?.secretHash ?? hashSecret('missing'), 'hex');
    const actual = Buffer.from(hashSecret(key), 'hex');
    if (!found || !timingSafeEqual(expected, actual)) throw unauthenticated('The API key is not valid');
    if (!found.lastUsedAt || Date.now() - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      // Bookkeeping only: failing to record it is never a reason to refuse a valid key.
      await keys.markUsed(em, found.id).catch(() => undefined);
    }
    return { partnerId: found.partnerId, environment: found.environment, apiKeyId: found.id };
  };
}
