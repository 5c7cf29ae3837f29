import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_COST_BUCKET_SIZE } from '../../src/platform/security/cost-budget.js';
import { consoleOperations, onlyTrustedDocuments } from '../support/clients/console-documents.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

/** The costliest values a console query's variables can take: page sizes at the maximum, ids of nothing. */
const WORST: Record<string, () => unknown> = {
  first: () => 100,
  last: () => 100,
  id: () => randomUUID(),
  endpointId: () => randomUUID(),
  createdAfter: () => new Date(Date.now() - 7 * 86_400_000).toISOString(),
  after: () => null,
};

describe('the sandbox console within the default cost budget', () => {
  let t: TestRamp;
  beforeAll(async () => {
    t = await startRamp({ GRAPHQL_COST_BUCKET_SIZE: String(DEFAULT_COST_BUCKET_SIZE), ...onlyTrustedDocuments() });
  });
  afterAll(() => t.close());

  it('asks nothing of a key that a full bucket cannot give: every query costs under a fifth of it, and all of them together fit in one', async () => {
    // The queries the console's build registered as trusted documents, each sent as the console sends it: by hash.
    const queries = (await consoleOperations()).filter((operation) => operation.kind === 'query');
    expect(queries.map((q) => q.name)).toEqual(expect.arrayContaining(['Transfers', 'TransferVolume', 'CustomerPage', 'Customers', 'LatestEvents']));
    const api = t.client(await t.keyFor('Console Cost Partner'));
    const costs: Record<string, number> = {};
    for (const { name, documentId, variables } of queries) {
      const values = Object.fromEntries(variables.map((v) => [v, WORST[v]!()]));
      const res = await api.request('POST', '/graphql', { body: { documentId, variables: values } });
      expect(res.status, name).toBe(200);
      costs[name] = res.body.extensions.cost.requestedQueryCost;
    }
    for (const [name, cost] of Object.entries(costs)) expect(cost, name).toBeLessThanOrEqual(DEFAULT_COST_BUCKET_SIZE / 5);
    expect(Object.values(costs).reduce((sum, cost) => sum + cost, 0)).toBeLessThan(DEFAULT_COST_BUCKET_SIZE);
  });
});
