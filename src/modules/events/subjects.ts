import type { EntityClass, EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { builder } from '../../graphql/builder.js';
import { type GraphQLContext, scopeOf } from '../../graphql/context.js';
import { BankAccountRef } from '../bank-accounts/graphql.js';
import { CustomerRef } from '../customers/graphql.js';
import { OfframpTransferRef, OnrampTransferRef, type TransferNode, transferNode } from '../transfers/graphql/types.js';
import { VirtualAccountRef } from '../virtual-accounts/graphql.js';
import { BankAccount } from '../bank-accounts/entities.js';
import { Customer } from '../customers/entities.js';
import { Transfer } from '../transfers/entities.js';
import { VirtualAccount } from '../virtual-accounts/entities.js';
import type { PartnerEvent } from './service.js';

/** Each kind of object an event is about, by the event's entityType: its GraphQL type, dataloader and entity. */
const SUBJECT_TYPES = {
  customer: { ref: CustomerRef, entity: Customer },
  onramp_transfer: { ref: OnrampTransferRef, entity: Transfer },
  offramp_transfer: { ref: OfframpTransferRef, entity: Transfer },
  virtual_account: { ref: VirtualAccountRef, entity: VirtualAccount },
  external_account: { ref: BankAccountRef, entity: BankAccount },
} as const;

/** What a subject is: what its GraphQL type resolves from (a transfer's node wraps its row). */
type Subject = Customer | TransferNode | VirtualAccount | BankAccount;

const typeOfSubject = new WeakMap<object, string>();

export const EventSubjectUnion = builder.unionType('EventSubject', {
  description:
    'The object an event is about, as it was when the event happened: select it with the fragments you use in queries, and a normalized cache (Apollo, urql) updates the object by its id.',
  types: Object.values(SUBJECT_TYPES).map((s) => s.ref),
  resolveType: (subject) => typeOfSubject.get(subject) ?? null,
});

/**
 * The event's subject as the event kept it (its columns at that moment, credentials and personal
 * data left out, numbers masked), read from the event alone: a fanned-out event costs no query per
 * subscriber. An event older than kept subjects shows the object as it is now (null once the caller
 * can no longer read it). Relations (a transfer's quote or customer) load as they are now.
 */
export async function subjectOf(event: PartnerEvent, ctx: GraphQLContext): Promise<Subject | null> {
  const kind = SUBJECT_TYPES[event.entityType as keyof typeof SUBJECT_TYPES];
  if (!kind) return null;
  const kept = event.subject ? restored(scopeOf(ctx).em, kind.entity, event.subject) : null;
  const subject = kept
    ? ((kind.entity === Transfer ? transferNode({ transfer: kept as unknown as Transfer }) : kept) as Subject)
    : ((await kind.ref.getDataloader(ctx).load(event.entityId)) as Subject | null);
  if (subject) typeOfSubject.set(subject, kind.ref.name);
  return subject;
}

/** The kept JSON back in the entity's own types, as its metadata declares them: dates, money as Decimal. */
function restored(em: EntityManager, entity: EntityClass<object>, snapshot: Record<string, unknown>): Record<string, unknown> {
  const meta = em.getMetadata().find(entity);
  const platform = em.getPlatform();
  return Object.fromEntries(
    Object.entries(snapshot).map(([key, value]) => {
      const prop = meta?.properties[key as never] as EntityProperty | undefined;
      if (value == null || !prop) return [key, value];
      if (prop.customType) return [key, prop.customType.convertToJSValue(value, platform)];
      return [key, prop.runtimeType === 'Date' ? new Date(value as string) : value];
    }),
  );
}
