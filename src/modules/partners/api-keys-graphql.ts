import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/errors.js';
import { SCOPES, type KeyScope } from '../../domain/scopes.js';
import { withoutNulls } from '../../graphql/types/arguments.js';
import { builder } from '../../graphql/builder.js';
import { connectionFieldOptions, nodeConnection, ownPosition, resolveKeysetPage } from '../../graphql/types/connection.js';
import { scopeOf } from '../../graphql/context.js';
import { domainEnum } from '../../graphql/types/enums.js';
import { withInputPaths } from '../../graphql/types/errors.js';
import { databaseIdOf } from '../../graphql/types/node.js';
import { payloadOf } from '../../graphql/types/payload.js';
import type { ApiKeyRow } from './queries.js';

/*
 * A partner's own API keys, managed over GraphQL with a key that has the `admin` scope (declared on each root
 * field): listed, created (the clear key shown once) and revoked.
 */

const SCOPE_MEANINGS: Record<KeyScope, string> = {
  read: 'Every query and subscription, and every GET of the REST API',
  write: 'Creating and changing customers, bank accounts, virtual accounts, quotes and transfers, and the whitelists',
  simulate: "The sandbox's simulations (deposits, KYC decisions, settlement, the faucet)",
  webhooks: 'Registering, changing, deleting and redelivering webhooks',
  admin: "Managing the partner's API keys (apiKeys, createApiKey, revokeApiKey), reading the audit log, erasing a customer",
};

export const ApiKeyScopeEnum = domainEnum('ApiKeyScope', SCOPES, {
  description: 'What an API key may do; a call outside its scopes is refused with insufficient_scope',
  describe: (scope) => SCOPE_MEANINGS[scope],
});

const ApiKeyRef = builder.loadableNodeRef<ApiKeyRow>('ApiKey', {
  id: { resolve: (k) => k.id },
  load: (ids: string[], ctx) => ctx.services.apiKeys.load(scopeOf(ctx), ids),
  sort: (k) => k.id,
});

ApiKeyRef.implement({
  description: "One of the partner's API keys in this environment: never its secret, which is shown once, at creation",
  // The key createApiKey made or revokeApiKey revoked: managing keys is seeing them.
  readableBy: 'admin',
  fields: (t) => ({
    databaseId: t.expose('id', { type: 'UUID', description: 'The id `npm run keys -- revoke` takes too' }),
    prefix: t.exposeString('prefix', { description: 'The public start of the key (rk_sandbox_AbCd1234), which logs and lists show' }),
    scopes: t.field({ type: [ApiKeyScopeEnum], description: 'What the key may do', resolve: (k) => k.scopes as KeyScope[] }),
    allowedIps: t.exposeStringList('allowedIps', { description: 'The addresses and CIDR ranges the key may be used from; empty: anywhere' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the key was created' }),
    lastUsedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the key last authenticated, to the minute; null when never',
      resolve: (k) => k.lastUsedAt ?? null,
    }),
    revokedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the key was revoked; null while it works',
      resolve: (k) => k.revokedAt ?? null,
    }),
  }),
});

const ApiKeyConnection = nodeConnection(ApiKeyRef, 'ApiKey');

builder.queryFields((t) => ({
  apiKeys: t.connection(
    {
      keyScope: 'admin',
      type: ApiKeyRef,
      description: "The partner's API keys in the caller's environment, oldest first, revoked ones included. Needs the admin scope.",
      ...connectionFieldOptions(),
      resolve: (_, args, ctx, info) =>
        resolveKeysetPage(ctx, info, args, ownPosition, (page) => ctx.services.apiKeys.page(scopeOf(ctx), page), {
          count: () => ctx.services.apiKeys.count(scopeOf(ctx)),
        }),
    },
    ApiKeyConnection,
  ),
}));

const CreateApiKeyInputRef = builder.inputType('CreateApiKeyInput', {
  description: "A new API key of the caller's partner, in the caller's environment",
  fields: (t) => ({
    scopes: t.field({ type: [ApiKeyScopeEnum], required: false, description: 'What the key may do; left out: every scope' }),
    allowedIps: t.stringList({
      required: false,
      description: 'IPv4 and IPv6 addresses and CIDR ranges (203.0.113.0/24, 2001:db8::/32) the key may be used from; left out or empty: anywhere',
    }),
  }),
});

const RevokeApiKeyInputRef = builder.inputType('RevokeApiKeyInput', {
  description: 'The API key to revoke',
  fields: (t) => ({ id: t.id({ required: true, description: 'The key (global id or databaseId)' }) }),
});

/** The clear key of a creation, kept beside its row only for the payload that shows it. */
const shownKeys = new WeakMap<ApiKeyRow, string>();

builder.mutationFields((t) => ({
  createApiKey: t.field({
    keyScope: 'admin',
    type: ApiKeyRef,
    description:
      'A new API key with these scopes and allowlist. The key itself is in the payload, once: only its hash is stored. Needs the admin scope. ForbiddenError scope_escalation for a scope the calling key lacks, or, when the calling key is locked to addresses, an allowlist outside its own.',
    errors: {
      ...payloadOf('CreateApiKey', 'apiKey', [ValidationError, ForbiddenError]),
      result: {
        name: 'CreateApiKeyPayload',
        description: 'The key created, and its clear value shown this once',
        fields: (t) => ({
          key: t.string({
            description: 'The API key (Authorization: Bearer <key>). Shown only in this response: store it now.',
            resolve: (apiKey) => {
              const key = typeof apiKey === 'object' ? shownKeys.get(apiKey) : undefined;
              if (key === undefined) throw new Error('The payload lost its key');
              return key;
            },
          }),
        }),
      },
    },
    args: { input: t.arg({ type: CreateApiKeyInputRef, required: true, description: 'The scopes and allowed addresses of the new key' }) },
    resolve: async (_, { input }, ctx) => {
      const { key, apiKey } = await withInputPaths(ctx.services.apiKeys.create(scopeOf(ctx), withoutNulls(input)));
      shownKeys.set(apiKey, key);
      return apiKey;
    },
  }),
  revokeApiKey: t.field({
    keyScope: 'admin',
    type: ApiKeyRef,
    description:
      'Revokes the key: every instance refuses it within moments and closes its subscriptions. Revoking it again keeps the first time. Needs the admin scope.',
    errors: payloadOf('RevokeApiKey', 'apiKey', [NotFoundError]),
    args: { input: t.arg({ type: RevokeApiKeyInputRef, required: true, description: 'Which key to revoke' }) },
    resolve: (_, { input }, ctx) => ctx.services.apiKeys.revoke(scopeOf(ctx), databaseIdOf(input.id, 'ApiKey')),
  }),
}));
