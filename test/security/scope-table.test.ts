import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/domain/scopes.js';
import { builder } from '../../src/graphql/builder.js';
import { features } from '../../src/features.js';
import { buildSchema } from '../../src/graphql/schema.js';
import { readableTypes, rootFieldScopes } from '../../src/graphql/guards/scopes.js';
import { contract } from '../../src/rest/openapi/contract.js';
import { requireRouteScopes } from '../../src/rest/route-scopes.js';
import { startRamp } from '../support/ramp.js';

const openApi = JSON.parse(readFileSync(join(import.meta.dirname, '../../openapi.json'), 'utf8'));

describe('every call declares its scope beside it', () => {
  it('every REST operation that takes a key declares one in its contract: reads `read`, nothing that writes', async () => {
    const t = await startRamp();
    try {
      const keyed = t.ramp.http.openApi.routes.flatMap((route) => {
        const contract = route.contract;
        return contract && !contract.public ? [{ method: route.method, id: contract.operationId, scope: contract.scope }] : [];
      });
      expect(keyed.length).toBeGreaterThan(40);
      for (const op of keyed) {
        expect(SCOPES, `${op.method} ${op.id}`).toContain(op.scope);
        // Reads of the partner's security record (its audit log) need `admin`, not `read`.
        expect(op.scope === 'read', `${op.method} ${op.id}`).toBe(['GET', 'HEAD'].includes(op.method) && op.id !== 'listAuditEvents');
      }
    } finally {
      await t.close();
    }
  });

  it('every root field of the schema declares one, reads are `read`, and every operation names insufficient_scope and ip_not_allowed', async () => {
    const schema = await buildSchema(features);
    const table = rootFieldScopes(schema);
    const fields = [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!].flatMap((type) =>
      Object.keys(type.getFields()).map((field) => `${type.name}.${field}`),
    );
    expect([...table.keys()].sort()).toEqual(fields.sort());
    for (const [field, scope] of table) {
      expect(SCOPES).toContain(scope);
      if (field.startsWith('Mutation.')) expect(scope, field).not.toBe('read');
      else if (field !== 'Query.apiKeys' && field !== 'Query.auditEvents') expect(scope, field).toBe('read');
    }
    expect(Object.fromEntries(readableTypes(schema))).toEqual({ ApiKey: 'admin', WebhookEndpoint: 'webhooks' });
    for (const item of Object.values(openApi.paths) as any[]) {
      for (const op of Object.values(item) as any[]) {
        if (Array.isArray(op.security) && op.security.length === 0) continue;
        expect(JSON.stringify(op.responses['403']), op.operationId).toContain('insufficient_scope');
        expect(JSON.stringify(op.responses['403']), op.operationId).toContain('ip_not_allowed');
      }
    }
  });

  it('refuses to start with a root field or a keyed route that declares no scope', async () => {
    const schema = await buildSchema(features);
    builder.queryField('forgottenScope', (t) => t.string({ resolve: () => 'x' }));
    expect(() => rootFieldScopes(builder.toSchema())).toThrow('Root fields without a scope (declare keyScope on the field): Query.forgottenScope');
    expect(rootFieldScopes(schema).has('Query.forgottenScope')).toBe(false);

    const app = Fastify();
    requireRouteScopes(app, (url) => url.startsWith('/v0/'));
    const responses = { 200: { description: 'ok' } };
    app.get('/v0/things', contract({ operationId: 'listThings', scope: 'read', summary: 's', tag: 't', responses }), async () => ({}));
    app.get('/healthz-like', async () => ({}));
    expect(() => app.post('/v0/things', contract({ operationId: 'createThing', summary: 's', tag: 't', responses }), async () => ({}))).toThrow(
      'POST /v0/things (createThing) needs an API key but declares no scope in its contract',
    );
    await app.close();
  });
});
