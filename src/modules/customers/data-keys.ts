import type { EntityManager } from '@mikro-orm/sql';
import { createHmac } from 'node:crypto';
import { type SealingKey, isSealed, masterKeyring, newDataKey, open, seal, unwrap, wrap } from '../../platform/sealing.js';
import { tenantOfEm } from '../../platform/tenant.js';
import { CustomerDataKey } from './entities.js';

/**
 * Each customer's data key: made on the first value it seals, wrapped by the master key, deleted by
 * erasure. A value is sealed with its customer's id as associated data, so it opens for that customer only.
 * Only writes and the reads that show a sealed field open the key: lists and events never do.
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
  /** Erasure: the customer's data key is gone, and with it every value it sealed. */
  destroy(em: EntityManager, customerId: string): Promise<void>;
  /** Master key rotation: re-wraps up to `limit` data keys the previous master key wrapped with the current one; returns how many. */
  rewrap(em: EntityManager, limit: number): Promise<number>;
}

export interface MasterKeys {
  current: Buffer;
  /** The key being rotated away from, while its data keys are re-wrapped. */
  previous?: Buffer | null;
}

export function createDataKeys(keys: MasterKeys): DataKeys {
  const ring = masterKeyring(keys.current, keys.previous ?? null);
  const { current, all: masters } = ring;

  async function keyOf(em: EntityManager, customerId: string, refresh = false): Promise<SealingKey | null> {
    const row = await em.findOne(CustomerDataKey, { customerId }, { refresh });
    return row && unwrap(masters, row.wrappedKey, customerId);
  }

  /**
   * The customer's key, made if it has none. Two first writes for one customer may run at once (two bank accounts
   * registered together hold the customer FOR SHARE only), so the new key is inserted `on conflict do nothing`: the
   * second waits for the first's commit, inserts nothing, and reads the key the first made.
   */
  async function keyMadeIfNone(em: EntityManager, customerId: string): Promise<SealingKey> {
    const found = await keyOf(em, customerId);
    if (found) return found;
    const key = newDataKey(customerId);
    const { partnerId, environment } = tenantOfEm(em);
    await em
      .getConnection('write')
      .execute(
        'insert into customer_data_keys (customer_id, partner_id, environment, master_key_id, wrapped_key, created_at) values (?, ?, ?, ?, ?, ?) on conflict (customer_id) do nothing',
        [customerId, partnerId, environment, current.id, wrap(current, key), new Date()],
        'run',
        em.getTransactionContext(),
      );
    return (await keyOf(em, customerId, true))!;
  }

  return {
    async seal(em, customerId, plaintext) {
      return seal(await keyMadeIfNone(em, customerId), plaintext, customerId);
    },

    async digest(em, customerId, plaintext) {
      return createHmac('sha256', (await keyMadeIfNone(em, customerId)).key)
        .update(plaintext)
        .digest('base64');
    },

    async open(em, customerId, stored) {
      if (!isSealed(stored)) return stored;
      const key = await keyOf(em, customerId);
      return key && open(key, stored, customerId);
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
        return rows.length;
      });
    },
  };
}
