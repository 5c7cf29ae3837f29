import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeclaredRequest, Replayed, answerDeclared, type IdempotentResponse } from '../../src/platform/use-cases/idempotency.js';
import { type Scope, scopeFor } from '../../src/platform/use-cases/scope.js';
import { useCase } from '../../src/platform/use-cases/use-case.js';
import type { Customer } from '../../src/modules/customers/entities.js';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { customerIdsWithEmail } from '../support/data/sealed.js';

let t: TestRamp;
let scope: () => Scope;

beforeAll(async () => {
  t = await startRamp();
  const [owner] = await t.sql<{ partner_id: string }>('select partner_id from api_keys limit 1');
  const actor = { partnerId: owner!.partner_id, environment: 'sandbox' as const, apiKeyId: 'test', apiKeyPrefix: 'rk_sandbox_test0000' };
  scope = () => scopeFor(t.ramp.db.fork(), actor);
});
afterAll(() => t.close());

/** A request declared as a face would, with no face around it: the use case alone claims, runs and stores. */
const declared = (key: string, fingerprint = 'use-case-test') =>
  new DeclaredRequest({ key, fingerprint, answer: (result) => ({ status: 201, body: { id: (result as { id: string }).id } }) });
const storedKey = (key: string) =>
  t.sql<{ state: string; response_status: number | null; response_body: unknown }>(
    'select state, response_status, response_body from idempotency_keys where key = ?',
    [key],
  );
const newCustomer = (email: string) => ({ email, type: 'corporate' as const, companyName: 'Use Case Ltd' });

describe('a use case owns its unit of work (platform/use-cases/use-case.ts)', () => {
  it('claims, stores and replays a key declared on its scope, with no face around it', async () => {
    const first = declared('k-straight');
    const customer = await t.ramp.services.customers.create({ ...scope(), idempotency: first }, newCustomer('straight@example.com'));
    expect(first.answered).toEqual({ status: 201, body: { id: customer.id } });
    expect(await storedKey('k-straight')).toEqual([{ state: 'completed', response_status: 201, response_body: { id: customer.id } }]);

    // The repeat does not run: the use case throws the stored answer for its face to give.
    const repeat = t.ramp.services.customers.create({ ...scope(), idempotency: declared('k-straight') }, newCustomer('straight@example.com'));
    await expect(repeat).rejects.toBeInstanceOf(Replayed);
    await expect(repeat).rejects.toMatchObject({ answer: { status: 201, body: { id: customer.id } } });
    expect(await customerIdsWithEmail(t, 'straight@example.com')).toHaveLength(1);
  });

  it('answers 422 idempotency_key_reused for the key with another fingerprint, and 409 while it is in flight', async () => {
    await t.ramp.services.customers.create({ ...scope(), idempotency: declared('k-other') }, newCustomer('other@example.com'));
    const reused = t.ramp.services.customers.create({ ...scope(), idempotency: declared('k-other', 'another request') }, newCustomer('other@example.com'));
    await expect(reused).rejects.toMatchObject({ code: 'idempotency_key_reused' });

    await t.sql(`insert into idempotency_keys (partner_id, environment, key, fingerprint, state, claim_token, locked_at, created_at)
                 select partner_id, 'sandbox', 'k-in-flight', 'use-case-test', 'in_progress', gen_random_uuid(), now(), now() from api_keys limit 1`);
    const inFlight = t.ramp.services.customers.create({ ...scope(), idempotency: declared('k-in-flight') }, newCustomer('in-flight@example.com'));
    await expect(inFlight).rejects.toMatchObject({ code: 'idempotency_key_in_use' });
    expect(await customerIdsWithEmail(t, 'in-flight@example.com')).toEqual([]);
  });

  it('releases the key and stores nothing when the work throws after the claim', async () => {
    const request = declared('k-throws');
    const failing = useCase({ ...scope(), idempotency: request }, async (tx) => {
      await tx.execute(`insert into partners (id, name, client_id) values (gen_random_uuid(), 'Thrown Work', 'client_thrown')`);
      // The key is claimed while the work runs (asked on the transaction's own connection: PGlite has one).
      expect(await tx.execute(`select state from idempotency_keys where key = 'k-throws'`)).toEqual([{ state: 'in_progress' }]);
      throw new Error('the work failed');
    });
    await expect(failing).rejects.toThrow('the work failed');
    expect(request.answered).toBeUndefined();
    expect(await storedKey('k-throws')).toEqual([]);
    expect(await t.sql(`select 1 from partners where name = 'Thrown Work'`)).toEqual([]);

    // The key is free again: a corrected request with it runs.
    const retried = await t.ramp.services.customers.create({ ...scope(), idempotency: declared('k-throws') }, newCustomer('thrown@example.com'));
    expect(await storedKey('k-throws')).toEqual([{ state: 'completed', response_status: 201, response_body: { id: retried.id } }]);
  });

  it('lets a use case nested in another join its transaction: the outer one alone holds the key', async () => {
    const request = declared('k-nested');
    const customer = await useCase({ ...scope(), idempotency: request }, async (tx) => {
      // The inner use case gets the same declared request on its scope: claiming it again would answer 409 (in flight).
      const inner: Customer = await t.ramp.services.customers.create({ ...scope(), em: tx, idempotency: request }, newCustomer('nested@example.com'));
      await tx.execute(`insert into partners (id, name, client_id) values (gen_random_uuid(), 'Nested Work', 'client_nested')`);
      return inner;
    });
    expect(await storedKey('k-nested')).toEqual([{ state: 'completed', response_status: 201, response_body: { id: customer.id } }]);
    expect(await customerIdsWithEmail(t, 'nested@example.com')).toEqual([customer.id]);

    // Its transaction is the outer one's: a failure after it undoes its change too.
    const failing = useCase({ ...scope(), idempotency: declared('k-nested-fails') }, async (tx) => {
      await t.ramp.services.customers.create({ ...scope(), em: tx }, newCustomer('nested-undone@example.com'));
      throw new Error('the outer work failed');
    });
    await expect(failing).rejects.toThrow('the outer work failed');
    expect(await customerIdsWithEmail(t, 'nested-undone@example.com')).toEqual([]);
  });

  it('refuses a face whose call reached no use case, or gave back another result than the one answered', async () => {
    const answer = (): IdempotentResponse => ({ status: 200, body: {} });
    await expect(answerDeclared(scope(), { key: 'k-no-use-case', fingerprint: 'f', answer }, async () => 'nothing ran')).rejects.toThrow('reached no use case');
    expect(await storedKey('k-no-use-case')).toEqual([]);
    const mapped = answerDeclared(scope(), { key: 'k-mapped', fingerprint: 'f', answer }, (s) => useCase(s, async () => ({ id: 'x' })).then(({ id }) => id));
    await expect(mapped).rejects.toThrow("must return its use case's result as is");
  });
});
