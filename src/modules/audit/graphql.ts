import { undefinedIfNull } from '../../graphql/types/arguments.js';
import { builder } from '../../graphql/builder.js';
import { connectionFieldOptions, nodeConnection, resolveKeysetPage } from '../../graphql/types/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum } from '../../graphql/types/enums.js';
import { AUDIT_ACTOR_TYPES, AUDIT_OUTCOMES } from './entities.js';
import type { AuditEventRow } from './queries.js';
import { positionOf } from './service.js';

const AuditOutcomeEnum = domainEnum('AuditOutcome', AUDIT_OUTCOMES, {
  description: 'Whether an audited call succeeded or was refused',
  describe: (v) => (v === 'succeeded' ? 'The call was carried out (or answered again: see replayed)' : 'The call was refused with a code; nothing changed'),
});
const AuditActorTypeEnum = domainEnum('AuditActorType', AUDIT_ACTOR_TYPES, {
  description: 'Who made an audited call',
  describe: (v) => ({ api_key: 'An API key', cli: 'The operator, with npm run keys', system: 'Ramp itself (the demo partner key of a first start)' })[v],
});

const AuditEventRef = builder.loadableNodeRef<AuditEventRow>('AuditEvent', {
  id: { resolve: (row) => row.id },
  load: (ids: string[], ctx) => ctx.services.audit.load(scopeOf(ctx), ids),
  sort: (row) => row.id,
});

AuditEventRef.implement({
  description: 'One row of the audit log: a state-changing call (or a refused one), as it was recorded. Rows never change.',
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The row id (REST `id`)' }),
    occurredAt: t.expose('occurredAt', { type: 'DateTime', description: 'When the call was recorded' }),
    action: t.exposeString('action', { description: 'What was done: customer.create, transfer.onramp.create, simulation.fiat_deposit, …' }),
    outcome: t.field({ type: AuditOutcomeEnum, description: 'Succeeded or refused', resolve: (row) => row.outcome }),
    code: t.exposeString('code', { nullable: true, description: 'The error code of a refusal (snake_case, as REST answers it); null when it succeeded' }),
    replayed: t.exposeBoolean('replayed', { description: 'An idempotent repeat: the first answer was given again and nothing changed' }),
    entityType: t.exposeString('entityType', {
      nullable: true,
      description: 'The kind of object the call changed (customer, transfer, webhook_endpoint, api_key, …)',
    }),
    entityId: t.exposeString('entityId', { nullable: true, description: 'The id (databaseId) of the object the call changed' }),
    actorType: t.field({ type: AuditActorTypeEnum, description: 'Who made the call', resolve: (row) => row.actorType }),
    apiKeyPrefix: t.exposeString('apiKeyPrefix', { nullable: true, description: "The calling key's public prefix" }),
    ip: t.exposeString('ip', { nullable: true, description: 'The client address the call came from' }),
    userAgent: t.exposeString('userAgent', { nullable: true, description: "The client's User-Agent" }),
    requestId: t.exposeString('requestId', { nullable: true, description: 'The request id (x-request-id) the call was answered with' }),
  }),
});

const AuditEventConnection = nodeConnection(AuditEventRef, 'AuditEvent');

builder.queryFields((t) => ({
  auditEvents: t.connection(
    {
      keyScope: 'admin',
      type: AuditEventRef,
      description: "The caller's audit log in this environment, newest first (`after` pages to older rows). Needs the admin scope.",
      args: {
        action: t.arg.string({ description: 'Only this action (customer.create, …)' }),
        entityId: t.arg.string({ description: 'Only rows about this object (its databaseId)' }),
      },
      ...connectionFieldOptions(),
      resolve: (_, args, ctx, info) => {
        const filter = { action: undefinedIfNull(args.action), entityId: undefinedIfNull(args.entityId) };
        return resolveKeysetPage(ctx, info, args, positionOf, (page) => ctx.services.audit.page(scopeOf(ctx), filter, page), {
          count: () => ctx.services.audit.count(scopeOf(ctx), filter),
        });
      },
    },
    AuditEventConnection,
  ),
}));
