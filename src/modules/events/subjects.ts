import { type EntityProperty, helper } from '@mikro-orm/core';
import { builder } from '../../graphql/builder.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { BankAccountRef } from '../bank-accounts/graphql.js';
import { CustomerRef } from '../customers/graphql.js';
import { OfframpTransferRef, OnrampTransferRef } from '../transfers/graphql/types.js';
import { VirtualAccountRef } from '../virtual-accounts/graphql.js';
import type { BankAccount } from '../bank-accounts/entities.js';
import type { Customer } from '../customers/entities.js';
import type { Transfer } from '../transfers/entities.js';
import type { VirtualAccount } from '../virtual-accounts/entities.js';
import type { PartnerEvent } from './service.js';

/** Each kind of object an event is about, by the event's entityType: its GraphQL type and dataloader. */
const SUBJECT_TYPES = {
  customer: CustomerRef,
  onramp_transfer: OnrampTransferRef,
  offramp_transfer: OfframpTransferRef,
  virtual_account: VirtualAccountRef,
  external_account: BankAccountRef,
} as const;

type SubjectRef = (typeof SUBJECT_TYPES)[keyof typeof SUBJECT_TYPES];
/** What a subject is: one of the entities its GraphQL types resolve. */
type Subject = Customer | Transfer | VirtualAccount | BankAccount;

const typeOfSubject = new WeakMap<object, string>();

export const EventSubjectUnion = builder.unionType('EventSubject', {
  description:
    'The object an event is about, as it was when the event happened: select it with the fragments you use in queries, and a normalized cache (Apollo, urql) updates the object by its id.',
  types: Object.values(SUBJECT_TYPES),
  resolveType: (subject) => typeOfSubject.get(subject) ?? null,
});

/**
 * The event's subject: its columns as the event recorded them, over the object as it is now for
 * what the event did not keep (columns that never change and stay in their table, such as account
 * numbers; everything, for events recorded before subjects were kept). Null when the caller can no
 * longer read the object.
 */
export async function subjectOf(event: PartnerEvent, ctx: GraphQLContext): Promise<Subject | null> {
  const ref: SubjectRef | undefined = SUBJECT_TYPES[event.entityType as keyof typeof SUBJECT_TYPES];
  if (!ref) return null;
  const current = (await ref.getDataloader(ctx).load(event.entityId)) as Subject | null;
  if (!current) return null;
  const subject = { ...current, ...restored(current, event.subject) } as Subject;
  typeOfSubject.set(subject, ref.name);
  return subject;
}

/**
 * The snapshot's JSON back in the entity's own types, as the entity's metadata declares them:
 * timestamps as dates, custom columns (money as Decimal) through their type.
 */
function restored(entity: object, snapshot: Record<string, unknown> | null): Record<string, unknown> {
  if (!snapshot) return {};
  const { __meta: meta, __platform: platform } = helper(entity);
  return Object.fromEntries(
    Object.entries(snapshot).map(([key, value]) => {
      const prop = meta.properties[key as never] as EntityProperty | undefined;
      if (value == null || !prop) return [key, value];
      if (prop.customType) return [key, prop.customType.convertToJSValue(value, platform)];
      return [key, prop.runtimeType === 'Date' ? new Date(value as string) : value];
    }),
  );
}
