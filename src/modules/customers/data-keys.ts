import type { EntityManager } from '@mikro-orm/sql';
import { type SealingKey, isSealed, masterKeyOf, newDataKey, open, seal, unwrap, wrap } from '../../platform/sealing.js';
import { ACROSS_TENANTS } from '../../platform/tenant.js';
import { CustomerDataKey } from './entities.js';

/**
 * Each customer's data key: made on the first value it seals, wrapped by the master key, deleted by
 * erasure. A value is sealed with its customer's id as associated data, so it opens for that customer only.
 * Only writes and the reads that show a sealed field open the key: lists and events never do.
 */
export interface DataKeys {
  /** Seals a customer's value (making its data key on first use); inside the caller's transaction. */
  seal(em: EntityManager, customerId: string, plaintext: string): Promise<string>;
  /** The clear value; a value stored before encryption is returned as it is, one whose key was destroyed as null. */
  open(em: EntityManager, customerId: string, stored: string): Promise<string | null>;
  /** Erasure: the customer's data key is gone, and with it every value it sealed. */
  destroy(em: EntityManager, customerId: string): Promise<void>;
  /** Master key rotation: re-wraps every data key the previous master key wrapped; returns how many. */
  rewrap(em: EntityManager): Promise<number>;
}

export interface MasterKeys {
  current: Buffer;
  /** The key being rotated away from, while its data keys are re-wrapped. */
  previous?: Buffer | null;
}

export function createDataKeys(keys: MasterKeys): DataKeys {
  const current = masterKeyOf(keys.current);
  const masters = [current, ...(keys.previous ? [masterKeyOf(keys.previous)] : [])];

  async function keyOf(em: EntityManager, customerId: string): Promise<SealingKey | null> {
    const row = await em.findOne(CustomerDataKey, { customerId });
    return row && unwrap(masters, row.wrappedKey, customerId);
  }

  return {
    async seal(em, customerId, plaintext) {
      let key = await keyOf(em, customerId);
      if (!key) {
        key = newDataKey(customerId);
        em.create(CustomerDataKey, { customerId, masterKeyId: current.id, wrappedKey: wrap(current, key), createdAt: new Date() });
        await em.flush();
      }
      return seal(key, plaintext, customerId);
    },

    async open(em, customerId, stored) {
      if (!isSealed(stored)) return stored;
      const key = await keyOf(em, customerId);
      return key && open(key, stored, customerId);
    },

    async destroy(em, customerId) {
      await em.nativeDelete(CustomerDataKey, { customerId });
    },

    async rewrap(em) {
      const previous = masters[1];
      if (!previous) return 0;
      return em.transactional(async (tx) => {
        const rows = await tx.find(CustomerDataKey, { masterKeyId: previous.id }, ACROSS_TENANTS);
        for (const row of rows) {
          row.wrappedKey = wrap(current, unwrap(masters, row.wrappedKey, row.customerId));
          row.masterKeyId = current.id;
        }
        await tx.flush();
        return rows.length;
      });
    },
  };
}
