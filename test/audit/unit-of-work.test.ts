import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuditCall, newAuditCall } from '../../src/platform/security/audit.js';
import { DeclaredRequest } from '../../src/platform/use-cases/idempotency.js';
import { useCase } from '../../src/platform/use-cases/use-case.js';
import { Partner } from '../../src/modules/partners/entities.js';
import { type Scope, scopeFor } from '../../src/platform/use-cases/scope.js';
import { customerIdsWithEmail } from '../support/data/sealed.js';
import { apiClient, startRamp, type TestRamp } from '../support/ramp.js';

/**
 * The audit call travels on the use case's Scope, and its row is written by the use case's unit of work in the
 * transaction of the change: it commits with the change, or rolls back with it.
 */
describe('the audit row in the unit of work (platform/use-cases/use-case.ts)', () => {
  let t: TestRamp;
  let scope: (call: AuditCall, idempotency?: DeclaredRequest) => Scope;
  let callFor: (requestId: string) => AuditCall;
  beforeAll(async () => {
    t = await startRamp();
    const [key] = await t.sql<{ id: string; prefix: string; partner_id: string }>('select id, prefix, partner_id from api_keys limit 1');
    const actor = { partnerId: key!.partner_id, environment: 'sandbox' as const, apiKeyId: key!.id, apiKeyPrefix: key!.prefix };
    callFor = (requestId) => newAuditCall(actor, 'customer.create', { ip: '192.0.2.7', userAgent: 'uow-probe/1', requestId });
    scope = (call, idempotency) => ({ ...scopeFor(t.ramp.db.fork(), actor, call), ...(idempotency && { idempotency }) });
  });
  afterAll(() => t?.close());

  const rowsOf = (requestId: string) =>
    t.sql<{ action: string; outcome: string; entity_type: string; entity_id: string; ip: string; user_agent: string }>(
      'select action, outcome, entity_type, entity_id, ip, user_agent from audit_events where request_id = ?',
      [requestId],
    );
  const newCustomer = (email: string) => ({ email, type: 'corporate' as const, companyName: 'Unit Of Work Ltd' });

  it('commits the call’s row with the change, naming what the change was about', async () => {
    const call = callFor('uow-commits');
    const customer = await t.ramp.services.customers.create(scope(call), newCustomer('uow-commits@example.com'));
    expect(call.recorded).toBe(true);
    expect(await rowsOf('uow-commits')).toEqual([
      { action: 'customer.create', outcome: 'succeeded', entity_type: 'customer', entity_id: customer.id, ip: '192.0.2.7', user_agent: 'uow-probe/1' },
    ]);
  });

  it('rolls the row back with a change that fails after it was written (the answer could not be rendered)', async () => {
    const call = callFor('uow-rolls-back');
    const failingAnswer = new DeclaredRequest({
      key: 'uow-rolls-back',
      fingerprint: 'uow',
      answer: () => {
        throw new Error('the answer could not be rendered');
      },
    });
    const failing = t.ramp.services.customers.create(scope(call, failingAnswer), newCustomer('uow-rolls-back@example.com'));
    await expect(failing).rejects.toThrow('the answer could not be rendered');
    expect(await customerIdsWithEmail(t, 'uow-rolls-back@example.com')).toEqual([]);
    expect(await rowsOf('uow-rolls-back')).toEqual([]);
    // Not recorded: the face records the call's refusal once it answers.
    expect(call).toMatchObject({ pending: false, recorded: false });
  });

  it('names the key a call issued through the API in the call’s own row, and writes no row of the keys CLI', async () => {
    const api = apiClient(t.url, t.key);
    const created = await api.request('POST', '/graphql', {
      body: { query: 'mutation { createApiKey(input: { scopes: [READ] }) { ... on CreateApiKeyPayload { apiKey { databaseId } } } }' },
      headers: { 'user-agent': 'uow-probe/2' },
    });
    const id = created.body.data.createApiKey.apiKey.databaseId;
    expect(id).toEqual(expect.any(String));
    const rows = await t.sql<{ action: string; outcome: string; actor_type: string; entity_id: string; user_agent: string }>(
      "select action, outcome, actor_type, entity_id, user_agent from audit_events where entity_type = 'api_key' and entity_id = ?",
      [id],
    );
    expect(rows).toEqual([{ action: 'api_key.create', outcome: 'succeeded', actor_type: 'api_key', entity_id: id, user_agent: 'uow-probe/2' }]);
  });

  it('sees a change flushed inside a savepoint of the call’s transaction', async () => {
    const call = callFor('uow-savepoint');
    const callScope = scope(call);
    await useCase(callScope, (tx) =>
      tx.transactional(async (savepoint) => {
        const partner = await savepoint.findOneOrFail(Partner, callScope.actor.partnerId);
        partner.location = `Savepoint ${Date.now()}`;
      }),
    );
    expect(call.recorded).toBe(true);
    expect(await rowsOf('uow-savepoint')).toEqual([
      expect.objectContaining({ action: 'customer.create', outcome: 'succeeded', entity_type: 'partner', entity_id: callScope.actor.partnerId }),
    ]);
  });

  it('writes no row for a use case run with no audit call on its scope', async () => {
    const call = callFor('uow-none');
    const { audit: _, ...bare } = scope(call);
    await t.ramp.services.customers.create(bare, newCustomer('uow-none@example.com'));
    expect(await rowsOf('uow-none')).toEqual([]);
    expect(call.recorded).toBe(false);
  });
});
