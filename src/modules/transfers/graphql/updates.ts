import { NotFoundError } from '../../../domain/errors.js';
import type { EventType } from '../../../domain/events.js';
import { builder } from '../../../graphql/builder.js';
import { scopeOf } from '../../../graphql/context.js';
import { databaseIdOf } from '../../../graphql/types/node.js';
import { EventTypeEnum } from '../../events/graphql.js';
import type { PartnerEvent } from '../../events/service.js';
import type { Kept } from '../../events/snapshots.js';
import { liveSubject, subjectOf } from '../../events/subjects.js';
import { type TransferNode, TransferRef, TransferSnapshotUnion } from './types.js';

/*
 * A transfer's live updates: its events, each with the transfer as it is now and as the event left it. Transfers
 * owns them (events streams any subject and names none).
 */
const TransferUpdateRef = builder.objectRef<PartnerEvent>('TransferUpdate').implement({
  description: 'One change of a transfer: the transfer as it is now, and as this event left it',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: "Pass it as `after` to resume after this update (it is the event's cursor)" }),
    event: t.field({ type: EventTypeEnum, description: 'What changed: created, or a status change', resolve: (e) => e.type as EventType }),
    transfer: t.field({
      type: TransferRef,
      description: 'The transfer as it is now, read when this update is sent (a replayed update shows the current state too): what a cache should hold',
      resolve: async (e, _, ctx) => {
        const transfer = await liveSubject(e, ctx);
        if (!transfer) throw new NotFoundError('Transfer');
        return transfer as TransferNode;
      },
    }),
    snapshot: t.field({
      type: TransferSnapshotUnion,
      nullable: true,
      description: 'The transfer as this event left it, with an id of its own: the history, never the live object',
      resolve: async (e, _, ctx) => (await subjectOf(e, ctx)) as Kept<TransferNode> | null,
    }),
    occurredAt: t.expose('createdAt', { type: 'DateTime', description: 'When the change was committed' }),
  }),
});

builder.subscriptionFields((t) => ({
  transferUpdated: t.field({
    keyScope: 'read',
    type: TransferUpdateRef,
    description:
      "One of the caller's transfers as each of its events left it (created, each status change), from now on or after `after` (a cursor of an earlier update or event).",
    args: {
      id: t.arg.id({ required: true, description: 'The transfer: global id or databaseId' }),
      after: t.arg.string({
        description: 'Replay the updates after this cursor (TransferUpdate.cursor or Event.cursor) first; none starts with the next update',
      }),
    },
    subscribe: (_, args, ctx) =>
      ctx.services.events.transferUpdates(scopeOf(ctx), databaseIdOf(args.id, 'OnrampTransfer', 'OfframpTransfer'), args.after, ctx.connection),
    // Each event runs with a context of its own (graphql/shared-subscriptions.ts), so relations are read afresh.
    resolve: (event: PartnerEvent) => event,
  }),
}));
