import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/sql';
import type { RequestEntityManager } from '../db/request-em.js';
import { ForbiddenError, UnauthenticatedError } from '../../domain/errors.js';
import type { Actor, Environment } from '../../domain/environment.js';
import type { KeyScope } from '../../domain/scopes.js';
import { addressAllowlist } from './client-address.js';

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

// One-shot: no Hash object per request (every authenticated request hashes its key to find it among the verified ones).
const hashSecret = (key: string) => hash('sha256', key, 'hex');
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
  scopes: readonly KeyScope[];
  /** CIDR ranges the key may be used from; empty: anywhere. */
  allowedIps: readonly string[];
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

/** Where a request comes from, and whether to skip the verified keys. */
export interface AuthenticationOptions {
  /** The client's address (`request.ip`, the graphql-ws upgrade request's): checked against the key's allowlist. */
  clientIp: string | undefined;
  /**
   * Asks the database even for a key kept as verified (a graphql-ws connection, which lives for days
   * on one check, and must be refused with 1013 while the database is down).
   */
  fresh?: boolean;
}

/**
 * Resolves an `Authorization` header to the calling partner, environment and scopes, or fails with
 * 401; a valid key used from an address its allowlist leaves out fails with 403 `ip_not_allowed`.
 * The request's EntityManager is forked only when the key is not among the verified ones, or its
 * `last used` is due.
 */
export type Authenticate = (em: RequestEntityManager, header: string | undefined, options: AuthenticationOptions) => Promise<Actor>;

/** Where a revocation is announced, in the revoking transaction: the payload is the key's id. */
export const KEY_REVOKED_CHANNEL = 'ramp_api_key_revoked';
/** How long a verified key is trusted without asking the database: bounds a missed revocation. */
export const VERIFIED_KEY_TTL_MS = 30_000;
/** Keys kept at most per instance; the least recently used one goes first. */
export const VERIFIED_KEYS_MAX = 10_000;

interface VerifiedKey {
  actor: Actor;
  /** Whether the key may be used from an address; absent when it may be used from anywhere. */
  allows?: (address: string | undefined) => boolean;
  expiresAt: number;
  /** When this instance last recorded `last used` for the key (ms), or the stored time it read. */
  lastUsedAt: number;
  /** When `get` last moved it to the most recently used end (ms). */
  movedAt?: number;
}

const MOVED_AT_MOST_EVERY_MS = 1_000;

/**
 * API keys this instance verified recently, by the hash of the whole key: a busy key costs no round
 * trip per request. Only a key whose hash matched goes in (a failure is never kept, so a miss costs
 * the same database read whatever the prefix); revocation drops it on every instance through
 * KEY_REVOKED_CHANNEL, a lost notification connection drops them all, and the TTL bounds the rest.
 */
export class VerifiedKeys {
  readonly #entries = new Map<string, VerifiedKey>();
  /** Counts revocations and clears: a key read from the database before one of them is not kept. */
  #generation = 0;
  constructor(
    readonly ttlMs = VERIFIED_KEY_TTL_MS,
    readonly max = VERIFIED_KEYS_MAX,
  ) {}

  get(hash: string, now: number): VerifiedKey | undefined {
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(hash);
      return undefined;
    }
    // Most recently used last, moved at most once a second: a busy key moved on every request filled the Map with
    // deleted slots to rehash, a fortieth of a read's CPU, and a second is nothing to an order that only picks
    // which of 10,000 keys goes first.
    if (!(now - (entry.movedAt ?? Number.NEGATIVE_INFINITY) < MOVED_AT_MOST_EVERY_MS)) {
      this.#entries.delete(hash);
      this.#entries.set(hash, entry);
      entry.movedAt = now;
    }
    return entry;
  }

  get generation(): number {
    return this.#generation;
  }

  /** Keeps a key verified by a read that began at `generation`, unless a revocation came since. */
  set(hash: string, entry: VerifiedKey, generation: number): void {
    if (generation !== this.#generation) return;
    this.#entries.delete(hash);
    this.#entries.set(hash, entry);
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** A revoked key: every entry of it goes (there is one per key, but nothing relies on that). */
  forget(apiKeyId: string): void {
    this.#generation++;
    for (const [hash, entry] of this.#entries) if (entry.actor.apiKeyId === apiKeyId) this.#entries.delete(hash);
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}

export function apiKeyAuthentication(keys: ApiKeyStore, verified?: VerifiedKeys): Authenticate {
  const markUsed = async (em: RequestEntityManager, entry: VerifiedKey, now: number) => {
    if (now - entry.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    entry.lastUsedAt = now; // before the write, so concurrent requests of the key do not all write
    // Bookkeeping only: failing to record it is never a reason to refuse a valid key.
    await keys.markUsed(em.get(), entry.actor.apiKeyId).catch(() => undefined);
  };
  return async (em, header, options) => {
    const key = keyFromHeader(header);
    if (!key) throw unauthenticated('An API key is required: send `Authorization: Bearer <key>`');
    const match = KEY_PATTERN.exec(key);
    if (!match) throw unauthenticated('The API key is not valid');
    const keyHash = hashSecret(key);
    const now = Date.now();
    const cached = options.fresh ? undefined : verified?.get(keyHash, now);
    if (cached) {
      refuseOutsideAllowlist(cached, options.clientIp);
      await markUsed(em, cached, now);
      return cached.actor;
    }
    const generation = verified?.generation ?? 0;
    const prefix = `rk_${match[1]}_${match[2]}`;
    const found = await keys.find(em.get(), prefix);
    // Hashed and compared even when no key has the prefix, so timing does not tell which prefixes exist.
    const expected = Buffer.from(found?.secretHash ?? MISSING_HASH, 'hex');
    if (!found || !timingSafeEqual(expected, Buffer.from(keyHash, 'hex'))) throw unauthenticated('The API key is not valid');
    const entry: VerifiedKey = {
      actor: Object.freeze({
        partnerId: found.partnerId,
        environment: found.environment,
        apiKeyId: found.id,
        apiKeyPrefix: prefix,
        scopes: new Set(found.scopes),
      }),
      ...(found.allowedIps.length > 0 && { allows: addressAllowlist(found.allowedIps) }),
      expiresAt: now + (verified?.ttlMs ?? 0),
      lastUsedAt: found.lastUsedAt?.getTime() ?? Number.NEGATIVE_INFINITY,
    };
    verified?.set(keyHash, entry, generation);
    refuseOutsideAllowlist(entry, options.clientIp);
    await markUsed(em, entry, now);
    return entry.actor;
  };
}

const MISSING_HASH = hashSecret('missing');

/** On every request, cached key or not: the allowlist is the key's, the address the request's. */
function refuseOutsideAllowlist(entry: VerifiedKey, clientIp: string | undefined): void {
  if (!entry.allows || entry.allows(clientIp)) return;
  throw new AddressNotAllowed(entry.actor, clientIp);
}

/**
 * 403 `ip_not_allowed`: a valid key from an address its allowlist leaves out. It names the key it refused, so the
 * refusal is audited as that key's (rest/audit.ts), though the key never became the request's actor.
 */
export class AddressNotAllowed extends ForbiddenError {
  constructor(
    readonly actor: Actor,
    clientIp: string | undefined,
  ) {
    super('ip_not_allowed', `This API key may not be used from ${clientIp ?? 'an unknown address'}: its IP allowlist does not include it`);
  }
}
