import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/domain/scopes.js';
import { features } from '../../src/features.js';
import { buildSchema } from '../../src/graphql/schema.js';
import { rootFieldScopes } from '../../src/graphql/scopes.js';
import { contract } from '../../src/platform/openapi-contract.js';
import { assignRouteScopes, scopeTable } from '../../src/platform/route-scopes.js';

const openApi = JSON.parse(readFileSync(join(import.meta.dirname, '../../openapi.json'), 'utf8'));
const restTable = scopeTable(features.map((feature) => feature.scopes?.rest));
const graphqlTable = scopeTable(features.map((feature) => feature.scopes?.graphql));

describe('every call has a scope', () => {
  it('every REST operation that takes a key has one, and every table entry is an operation', () => {
    const operations: { id: string; method: string; isPublic: boolean }[] = Object.values(openApi.paths).flatMap((item: any) =>
      Object.entries(item).map(([method, op]: [string, any]) => ({
        id: op.operationId,
        method,
        isPublic: Array.isArray(op.security) && op.security.length === 0,
      })),
    );
    const keyed = operations.filter((op) => !op.isPublic);
    expect(keyed.length).toBeGreaterThan(40);
    expect(keyed.filter((op) => !restTable.has(op.id)).map((op) => op.id)).toEqual([]);
    expect([...restTable.keys()].filter((id) => !keyed.some((op) => op.id === id))).toEqual([]);
    // Reads are `read`; nothing that writes is.
    // Reads of the partner's security record (its audit log) need `admin`, not `read`.
    for (const op of keyed) expect(restTable.get(op.id) === 'read', `${op.method} ${op.id}`).toBe(op.method === 'get' && op.id !== 'listAuditEvents');
  });

  it('every root field of the schema has one, reads are `read`, and every operation names insufficient_scope and ip_not_allowed', async () => {
    const schema = await buildSchema(features);
    const table = rootFieldScopes(schema, graphqlTable);
    for (const [field, scope] of table) {
      expect(SCOPES).toContain(scope);
      if (field.startsWith('Mutation.')) expect(scope, field).not.toBe('read');
      else if (field !== 'Query.apiKeys' && field !== 'Query.auditEvents') expect(scope, field).toBe('read');
    }
    for (const item of Object.values(openApi.paths) as any[]) {
      for (const op of Object.values(item) as any[]) {
        if (Array.isArray(op.security) && op.security.length === 0) continue;
        expect(JSON.stringify(op.responses['403']), op.operationId).toContain('insufficient_scope');
        expect(JSON.stringify(op.responses['403']), op.operationId).toContain('ip_not_allowed');
      }
    }
  });

  it('refuses to start with a root field or a keyed route no table names', async () => {
    const schema = await buildSchema(features);
    const partial = new Map([...graphqlTable].filter(([field]) => field !== 'Mutation.createCustomer'));
    expect(() => rootFieldScopes(schema, partial)).toThrow("Root fields without a scope (add them to their module's scopes.ts): Mutation.createCustomer");
    expect(() => rootFieldScopes(schema, new Map([...graphqlTable, ['Mutation.noSuchField', 'write']]))).toThrow('Mutation.noSuchField');

    const app = Fastify();
    assignRouteScopes(app, new Map([['listThings', 'read']]), (url) => url.startsWith('/v0/'));
    const responses = { 200: { description: 'ok' } };
    app.get('/v0/things', contract({ operationId: 'listThings', summary: 's', tag: 't', responses }), async () => ({}));
    app.get('/healthz-like', async () => ({}));
    expect(() => app.post('/v0/things', contract({ operationId: 'createThing', summary: 's', tag: 't', responses }), async () => ({}))).toThrow(
      'POST /v0/things (createThing) needs an API key but no scope',
    );
    await app.close();
  });
});
