import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionOfMutation, actionOfOperation, GRAPHQL_ACTIONS, REST_ACTIONS } from '../../src/modules/audit/actions.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

let t: TestRamp;
beforeAll(async () => {
  t = await startRamp();
});
afterAll(() => t.close());

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ACTION = /^[a-z_]+(\.[a-z_]+)+$/;

describe('every state-changing call has an audit action', () => {
  it('names every state-changing REST route Fastify registered, with a stable dotted name', () => {
    const routes = t.ramp.http.openApi.routes.filter((r) => STATE_CHANGING.has(r.method) && r.contract);
    expect(routes.length).toBeGreaterThan(20);
    const unnamed = routes.filter((r) => !actionOfOperation(r.contract!.operationId, {})).map((r) => `${r.method} ${r.url}`);
    expect(unnamed).toEqual([]);
    for (const r of routes) expect(actionOfOperation(r.contract!.operationId, {})).toMatch(ACTION);
  });

  it('names every mutation field of the schema, and the tables name nothing that does not exist', async () => {
    const schema = await import('../../src/graphql/schema.js').then((m) => m.buildSchema([]));
    const fields = Object.keys(schema.getMutationType()!.getFields());
    expect(fields.length).toBeGreaterThan(20);
    expect(fields.filter((field) => !actionOfMutation(field))).toEqual([]);
    for (const field of fields) expect(actionOfMutation(field)).toMatch(ACTION);
    expect(Object.keys(GRAPHQL_ACTIONS).filter((field) => !fields.includes(field))).toEqual([]);
    const operations = new Set(t.ramp.http.openApi.routes.map((r) => r.contract?.operationId));
    expect(Object.keys(REST_ACTIONS).filter((operationId) => !operations.has(operationId))).toEqual([]);
  });

  it('names a simulation by the step its body asks for', () => {
    expect(actionOfOperation('simulateOnrampTransfer', { action: 'fiat_deposit' })).toBe('simulation.fiat_deposit');
    expect(actionOfOperation('simulateKyc', { action: 'approve_kyc' })).toBe('simulation.kyc_decision');
    expect(actionOfOperation('simulateKyc', { action: '__proto__' })).toBe('simulation.unknown');
  });
});
