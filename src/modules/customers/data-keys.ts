import type { EntityManager } from '@mikro-orm/sql';
import { createHmac } from 'node:crypto';
import { type SealingKey, isSealed, keyObjectOf, masterKeyring, newDataKey, open, seal, unwrap, wrap } from '../../platform/security/sealing.js';
import type { Environment } from '../../domain/environment.js';
import { tenantOfEm } from '../../platform/security/tenant.js';
import { CustomerDataKey, EmailDigestKey } from './entities.js';

/**
 * Each customer's data key: made on the first value it seals, wrapped by the master key, deleted by
 * erasure. A value is sealed with its customer's id as associated data, so it opens for that customer only.
 * Reads of a customer open its personal values with it (a list reads all its customers' keys in one statement).
 */
export interface DataKeys {
  /** Seals a customer's value (making its data key on first use); inside the caller's transaction. */
  seal(em: EntityManager, customerId: string, plaintext: string): Promise<string>;
  /**
   * A keyed digest of a customer's value (HMAC-SHA256 under its data key): what a uniqueness check compares
   * instead of the sealed value, which differs at every sealing. Erasure makes it meaningless with the key.
   */
  digest(em: EntityManager, customerId: string, plaintext: string): Promise<string>;
  /** The clear value; a value stored before encryption is returned as it is, one whose key was destroyed as null. */
  open(em: EntityManager, customerId: string, stored: string): Promise<string | null>;
  /** `open` for many customers' values, their keys read in one statement. */
  openMany(em: EntityManager, values: readonly { customerId: string; stored: string }[]): Promise<(string | null)[]>;
  /**
   * A new customer's data key, made before its row exists so its first values are sealed in the row's INSERT;
   * `store` inserts the key after the row (the key references it), in the same transaction.
   */
  fresh(customerId: string): { seal(plaintext: string): string; store(em: EntityManager): Promise<void> };
  /**
   * A keyed digest of an email (trimmed, lower-cased) under the tenant's digest key, shared by its customers: what the
   * email's uniqueness and every lookup by email compare. The key is made on first use and kept in memory after.
   */
  emailDigest(em: EntityManager, email: string): Promise<string>;
  /** Erasure: the customer's data key is gone, and with it every value it sealed. */
  destroy(em: EntityManager, customerId: string): Promise<void>;
  /**
   * Master key rotation: re-wraps up to `limit` data keys (and the tenants' email digest keys) the previous master key
   * wrapped with the current one; returns how many.
   */
  rewrap(em: EntityManager, limit: number): Promise<number>;
}

export interface MasterKeys {
  current: Buffer;
  /** The key being rotated away from, while its data keys are re-wrapped. */
  previous?: Buffer | null;
}

/** Most data keys, and most opened values, a Ramp keeps in memory (each cache); past it the least recently used goes. */
export const CACHED = 10_000;

/**
 * A cache of about `max` entries that keeps the recently used: two generations, the current one filled until it holds
 * `max / 2`, then kept as the previous one while a new one fills; a hit in the previous generation moves to the current.
 * A hit in the current generation costs one Map lookup (a page of 100 customers makes 100 of them), where a strict LRU
 * would move every entry it hits. A few lines here rather than a dependency: nothing else in Ramp needs one.
 */
export function recentlyUsed<V>(max: number) {
  let current = new Map<string, V>();
  let previous = new Map<string, V>();
  const set = (key: string, value: V) => {
    current.set(key, value);
    if (current.size >= max / 2) {
      previous = current;
      current = new Map();
    }
  };
  return {
    get(key: string): V | undefined {
      const value = current.get(key);
      if (value !== undefined) return value;
      const old = previous.get(key);
      if (old !== undefined) set(key, old);
      return old;
    },
    set,
  };
}

export function createDataKeys(keys: MasterKeys): DataKeys {
  const ring = masterKeyring(keys.current, keys.previous ?? null);
  const { current, all: masters } = ring;

  /*
   * What reads of lists spend nothing on twice: data keys by their wrapped form, and values by their sealed form, each
   * keyed by exactly what is stored and the customer it is bound to. A list (`openMany`) serves a value it opened
   * before without reading the key again: the value is the one the row holds in this read's snapshot, and erasure
   * never leaves a sealed value behind its destroyed key (it rewrites the row with markers, in the transaction that
   * deletes the key), so a row that still holds the sealed value still has its key. A single value (`open`: a tax or
   * bank number) reads its key first, always. Bounded per instance; a restart starts empty.
   */
  const unwrapped = recentlyUsed<{ wrapped: string; key: SealingKey }>(CACHED);
  const openedValues = recentlyUsed<{ stored: string; value: string }>(CACHED);
  // Entries are found by the customer and the stored value's tail (its random IV, tag and last bytes differ at every
  // sealing), and taken only when the whole stored value is the one cached: a short key to hash, an exact match.
  const entryOf = (customerId: string, stored: string) => `${customerId}${stored.slice(-40)}`;
  const unwrapCached = (customerId: string, wrapped: string) => {
    const cacheKey = entryOf(customerId, wrapped);
    const cached = unwrapped.get(cacheKey);
    if (cached?.wrapped === wrapped) return cached.key;
    const key = unwrap(masters, wrapped, customerId);
    unwrapped.set(cacheKey, { wrapped, key });
    return key;
  };
  const openCached = (key: SealingKey, stored: string, customerId: string) => {
    const cacheKey = entryOf(customerId, stored);
    const cached = openedValues.get(cacheKey);
    if (cached?.stored === stored) return cached.value;
    const value = open(key, stored, customerId);
    openedValues.set(cacheKey, { stored, value });
    return value;
  };

  async function keyOf(em: EntityManager, customerId: string, refresh = false): Promise<SealingKey | null> {
    const row = await em.findOne(CustomerDataKey, { customerId }, { refresh });
    return row && unwrapCached(customerId, row.wrappedKey);
  }

  const insertKey = (em: EntityManager, customerId: string, key: SealingKey) => {
    const { partnerId, environment } = tenantOfEm(em);
    return em
      .getConnection('write')
      .execute(
        'insert into customer_data_keys (customer_id, partner_id, environment, master_key_id, wrapped_key, created_at) values (?, ?, ?, ?, ?, ?) on conflict (customer_id) do nothing',
        [customerId, partnerId, environment, current.id, wrap(current, key), new Date()],
        'run',
        em.getTransactionContext(),
      );
  };

  /** Each tenant's digest key, once unwrapped and known committed: it never changes (a rotation re-wraps the same key). */
  const digestKeys = new Map<string, Buffer>();

  /**
   * The tenant's digest key, made if it has none (`on conflict do nothing`: a second maker waits for the first's commit
   * and reads its key). One made here is not kept in memory: the caller's transaction may still roll it back.
   */
  async function digestKeyOf(em: EntityManager, tenant: { partnerId: string; environment: Environment }): Promise<Buffer> {
    const cacheKey = `${tenant.partnerId}:${tenant.environment}`;
    const known = digestKeys.get(cacheKey);
    if (known) return known;
    const context = `email-digest:${tenant.partnerId}:${tenant.environment}`;
    const found = await em.findOne(EmailDigestKey, tenant);
    if (found) {
      const key = unwrap(masters, found.wrappedKey, context).key;
      digestKeys.set(cacheKey, key);
      return key;
    }
    await em
      .getConnection('write')
      .execute(
        'insert into email_digest_keys (partner_id, environment, master_key_id, wrapped_key, created_at) values (?, ?, ?, ?, ?) on conflict do nothing',
        [tenant.partnerId, tenant.environment, current.id, wrap(current, newDataKey(context)), new Date()],
        'run',
        em.getTransactionContext(),
      );
    const made = await em.findOne(EmailDigestKey, tenant, { refresh: true });
    return unwrap(masters, made!.wrappedKey, context).key;
  }

  /**
   * The customer's key, made if it has none. Two first writes for one customer may run at once (two bank accounts
   * registered together hold the customer FOR SHARE only), so the new key is inserted `on conflict do nothing`: the
   * second waits for the first's commit, inserts nothing, and reads the key the first made.
   */
  async function keyMadeIfNone(em: EntityManager, customerId: string): Promise<SealingKey> {
    const found = await keyOf(em, customerId);
    if (found) return found;
    await insertKey(em, customerId, newDataKey(customerId));
    return (await keyOf(em, customerId, true))!;
  }

  return {
    async seal(em, customerId, plaintext) {
      return seal(await keyMadeIfNone(em, customerId), plaintext, customerId);
    },

    async digest(em, customerId, plaintext) {
      return createHmac('sha256', keyObjectOf((await keyMadeIfNone(em, customerId)).key))
        .update(plaintext)
        .digest('base64');
    },

    async open(em, customerId, stored) {
      if (!isSealed(stored)) return stored;
      const key = await keyOf(em, customerId);
      return key && openCached(key, stored, customerId);
    },

    async openMany(em, values) {
      // Each value looked up once: what this instance opened before, or undefined (a value to open, its key to read).
      const known = values.map(({ customerId, stored }) => {
        if (!isSealed(stored)) return stored;
        const entry = openedValues.get(entryOf(customerId, stored));
        return entry?.stored === stored ? entry.value : undefined;
      });
      const missing = values.filter((_, i) => known[i] === undefined);
      const ids = [...new Set(missing.map((v) => v.customerId))];
      // Plain rows, not entities: a page reads up to a hundred keys, and hydrating each into the identity map cost
      // more than the statement.
      const rows = ids.length
        ? await em
            .getConnection('read')
            .execute<{ customer_id: string; wrapped_key: string }[]>(
              `select customer_id, wrapped_key from customer_data_keys where customer_id in (${ids.map(() => '?').join(', ')})`,
              ids,
              'all',
              em.getTransactionContext(),
            )
        : [];
      const keys = new Map(rows.map((row) => [row.customer_id, unwrapCached(row.customer_id, row.wrapped_key)]));
      return values.map(({ customerId, stored }, i) => {
        if (known[i] !== undefined) return known[i];
        const key = keys.get(customerId);
        return key ? openCached(key, stored, customerId) : null;
      });
    },

    fresh(customerId) {
      const key = newDataKey(customerId);
      return { seal: (plaintext) => seal(key, plaintext, customerId), store: (em) => insertKey(em, customerId, key).then(() => undefined) };
    },

    async emailDigest(em, email) {
      return createHmac('sha256', keyObjectOf(await digestKeyOf(em, tenantOfEm(em))))
        .update(email.trim().toLowerCase())
        .digest('base64');
    },

    async destroy(em, customerId) {
      await em.nativeDelete(CustomerDataKey, { customerId });
    },

    async rewrap(em, limit) {
      const previous = ring.previous;
      if (!previous) return 0;
      return em.transactional(async (tx) => {
        // SKIP LOCKED: instances restarted with both keys share the work and none re-wraps a key twice.
        const rows = await tx.execute<{ customer_id: string; wrapped_key: string }[]>(
          'select customer_id, wrapped_key from customer_data_keys where master_key_id = ? limit ? for update skip locked',
          [previous.id, limit],
        );
        for (const row of rows) {
          const rewrapped = wrap(current, unwrap(masters, row.wrapped_key, row.customer_id));
          await tx.execute('update customer_data_keys set wrapped_key = ?, master_key_id = ? where customer_id = ?', [rewrapped, current.id, row.customer_id]);
        }
        const digestKeys = await tx.execute<{ partner_id: string; environment: string; wrapped_key: string }[]>(
          'select partner_id, environment, wrapped_key from email_digest_keys where master_key_id = ? limit ? for update skip locked',
          [previous.id, limit],
        );
        for (const row of digestKeys) {
          const context = `email-digest:${row.partner_id}:${row.environment}`;
          await tx.execute('update email_digest_keys set wrapped_key = ?, master_key_id = ? where partner_id = ? and environment = ?', [
            wrap(current, unwrap(masters, row.wrapped_key, context)),
            current.id,
            row.partner_id,
            row.environment,
          ]);
        }
        return rows.length + digestKeys.length;
      });
    },
  };
}
