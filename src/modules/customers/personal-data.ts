import type { EntityManager } from '@mikro-orm/sql';
import type { RecordedAddress } from '../../domain/address.js';
import { REDACTED } from '../../domain/redaction.js';
import { CACHED, type DataKeys, recentlyUsed } from './data-keys.js';

/**
 * A customer's personal values: stored together as one JSON in `customers.personal`, sealed by the customer's data key,
 * so destroying that key (erasure) leaves nothing of them readable in the table or any backup of it. Only the email's
 * keyed digest sits beside it, for uniqueness and lookups. A value from before sealing (the migration moved the clear
 * columns here) opens as it is until the job `seal-clear-personal-data` seals it.
 */
export interface PersonalData {
  email: string;
  firstName: string | null;
  lastName: string | null;
  companyName: string | null;
  address: RecordedAddress | null;
}

/** What is sealed: exactly the personal values of a customer, whatever else the object carries. */
const personalJson = (customer: Written) =>
  JSON.stringify({
    email: customer.email,
    firstName: customer.firstName ?? null,
    lastName: customer.lastName ?? null,
    companyName: customer.companyName ?? null,
    address: customer.address ?? null,
  } satisfies PersonalData);

/** A stored customer: its id and its sealed personal values. */
interface Stored {
  id: string;
  personal: string;
}

/** A customer being written: its values in clear, sealed into `personal` and digested into `emailDigest`. */
type Written = Stored & { email: string; emailDigest?: string | null } & { [K in Exclude<keyof PersonalData, 'email'>]?: PersonalData[K] };

/**
 * Opened values already parsed, by their text. A page of 100 transfers opens its customers' values from the cache of
 * data-keys.ts, and parsing each again cost more than that. Bounded as that cache is, and holding what it holds.
 */
const parsedValues = recentlyUsed<PersonalData>(CACHED);

/** An opened value, or, when the key is gone (an erasure committed while this read ran), what erasure leaves. */
function parsed(opened: string | null): PersonalData {
  if (opened === null) return { email: REDACTED, firstName: null, lastName: null, companyName: null, address: null };
  let values = parsedValues.get(opened);
  if (!values) {
    values = JSON.parse(opened) as PersonalData;
    parsedValues.set(opened, values);
  }
  // The fields are copied onto each customer; its address is an object of its own, which a use case may change.
  return values.address ? { ...values, address: { ...values.address } } : values;
}

/** The customers' personal values sealed at write and opened at read, with their data keys (one read for many). */
export interface PersonalSeal {
  /** Seals the customer's personal values into `personal` and digests its email, before the row is flushed. */
  seal(em: EntityManager, customer: Written): Promise<void>;
  /** A new customer's values sealed by a key made for it: `store` inserts the key once the row is flushed. */
  sealNew(em: EntityManager, customer: Written): Promise<{ store(em: EntityManager): Promise<void> }>;
  /** Fills each customer's personal values from `personal` (entities and plain rows alike); their keys in one read. */
  open<C extends Stored>(em: EntityManager, customers: readonly C[]): Promise<(C & PersonalData)[]>;
  /** Erasure: markers in clear in place of the values, and no digest (the key that sealed them is destroyed). */
  redact(customer: Written): void;
}

export function personalSeal(dataKeys: DataKeys): PersonalSeal {
  return {
    async seal(em, customer) {
      customer.personal = await dataKeys.seal(em, customer.id, personalJson(customer));
      customer.emailDigest = await dataKeys.emailDigest(em, customer.email);
    },

    async sealNew(em, customer) {
      const key = dataKeys.fresh(customer.id);
      customer.personal = key.seal(personalJson(customer));
      customer.emailDigest = await dataKeys.emailDigest(em, customer.email);
      return key;
    },

    async open<C extends Stored>(em: EntityManager, customers: readonly C[]) {
      const opened = await dataKeys.openMany(
        em,
        customers.map((c) => ({ customerId: c.id, stored: c.personal })),
      );
      for (const [i, customer] of customers.entries()) Object.assign(customer, parsed(opened[i]!));
      return customers as (C & PersonalData)[];
    },

    redact(customer) {
      customer.email = REDACTED;
      customer.firstName &&= REDACTED;
      customer.lastName &&= REDACTED;
      customer.companyName &&= REDACTED;
      customer.address = null;
      customer.personal = personalJson(customer);
      customer.emailDigest = null;
    },
  };
}
