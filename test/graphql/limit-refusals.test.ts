import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRamp, type TestRamp } from '../support/ramp.js';

const TOO_COSTLY = '{ transfers(first: 100) { edges { node { customer { transfers(first: 100) { edges { node { id } } } } } } } }';
const TOO_LONG = `{ ${'__typename '.repeat(6000)} }`;
const hop = (inner: string) => `transfers(first: 1) { edges { node { customer { ${inner} } } } }`;
const TOO_DEEP = `{ ${hop(hop(hop('id')))} }`;
const ACCEPTS = ['application/json', 'application/graphql-response+json'];

/**
 * The everyday test files share their worker's modules, and so do two Ramps in one process: a refusal must not leave
 * state behind that changes how the next one is answered, in this Ramp or another.
 */
describe('a limit refusal answers 400 whatever was refused before it, in any Ramp of the process', () => {
  let first: TestRamp;
  let second: TestRamp;
  beforeAll(async () => {
    first = await startRamp();
    second = await startRamp({ GRAPHQL_INTROSPECTION: 'false' });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  const send = async (t: TestRamp, query: string, accept: string) => {
    const res = await t.client(t.key).request('POST', '/graphql', { body: { query }, headers: { accept } });
    return { status: res.status, code: res.body.errors?.[0]?.extensions?.code, data: res.body.data };
  };

  it('a too long document (refused while parsing) to a plain JSON client, then a too costly one, in either Ramp, twice', async () => {
    for (let round = 0; round < 2; round++) {
      for (const t of [first, second]) {
        for (const accept of ACCEPTS) {
          expect(await send(t, TOO_LONG, accept), `${accept}, round ${round}`).toEqual({ status: 400, code: 'QUERY_TOO_LONG', data: undefined });
          expect(await send(t, TOO_COSTLY, accept), `${accept}, round ${round}`).toEqual({ status: 400, code: 'QUERY_COMPLEXITY', data: undefined });
        }
      }
    }
  });

  it('every limit, from a document Yoga already validated once (its kept result) as from a new one', async () => {
    for (const t of [second, first]) {
      for (const accept of ACCEPTS) {
        for (let time = 0; time < 2; time++) {
          expect(await send(t, TOO_DEEP, accept), accept).toEqual({ status: 400, code: 'QUERY_DEPTH', data: undefined });
          expect(await send(t, TOO_COSTLY, accept), accept).toEqual({ status: 400, code: 'QUERY_COMPLEXITY', data: undefined });
        }
      }
    }
  });
});
