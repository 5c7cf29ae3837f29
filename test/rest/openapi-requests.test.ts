import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../resilience/fuzz/rest-routes.js';
import {
  type DocumentedOperation,
  type GeneratedRequest,
  declaresCheckAt,
  operationsOf,
  requestOf,
  schemaGenerator,
} from '../support/clients/openapi-requests.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

/**
 * A REST contract that declares every rule it enforces. Requests are drawn from openapi.json alone
 * (test/support/clients/openapi-requests.ts), CASES per operation; none may be refused as invalid, unless
 * every field the refusal names is one whose rule the document states in words (`x-ramp-checks`: a
 * rule of stored state, such as the customer's type or the transfer's network, or of the world, such
 * as DNS). 404, 409 and 422 (a resource that is gone, a state that forbids it) are answers.
 * FUZZ_SEED replays a run; CONTRACT_CASES raises the count (test/resilience/fuzz runs more).
 */
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CASES = Number(process.env.CONTRACT_CASES ?? 20);
const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
const generator = schemaGenerator(document);
const operations = operationsOf(document);

let t: TestRamp;
let ids: Record<string, string[]>;
let bodyIds: Record<string, string[]>;
beforeAll(async () => {
  t = await startRamp();
  ({ ids, bodyIds } = await seed(t.client(t.key)));
});
afterAll(() => t?.close());

/**
 * Operations whose bodies still carry a rule the document does not state (left
 * for the next change): their requests are generated but not yet asserted. None left.
 */
const PENDING: Record<string, string> = {};

type FieldRefusal = { code: string; pointer?: string };
type Answer = { code?: string; errors?: FieldRefusal[]; data?: { error?: string; errors?: FieldRefusal[] } };

/**
 * What the server said when it refused a schema-valid request as invalid; null when it took it, refused it for another
 * reason, or refused it only at fields whose rules `contract` declares in words.
 */
async function refusal(request: GeneratedRequest, operation: DocumentedOperation): Promise<string | null> {
  const headers: Record<string, string> = { authorization: `Bearer ${t.key}`, ...request.headers };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${t.url}${request.path}`, {
    method: request.method,
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await response.text();
  if (response.status !== 400) return null;
  const answer = JSON.parse(text) as Answer;
  const code = answer.code === 'EN-DATA-009' || answer.data ? answer.data?.error : answer.code;
  const errors = answer.errors ?? answer.data?.errors ?? [];
  const declared = (e: { pointer?: string }) => typeof e.pointer === 'string' && declaresCheckAt(document, operation, e.pointer);
  if (code !== 'validation_failed' || (errors.length && errors.every(declared))) return null;
  return `${response.status} ${text.slice(0, 600)}`;
}

const describeRequest = (r: GeneratedRequest) =>
  `${r.method} ${r.path.slice(0, 300)} headers=${JSON.stringify(r.headers).slice(0, 300)} body=${JSON.stringify(r.body)?.slice(0, 900)}`;

async function refusedRequests(operation: DocumentedOperation): Promise<string[]> {
  const refused: string[] = [];
  await fc.assert(
    fc.asyncProperty(fc.gen(), async (g) => {
      const request = requestOf(g, generator, operation, ids, bodyIds);
      const answer = await refusal(request, operation).catch((error: Error) => `not sent: ${error.message} ${String(error.cause ?? '')}`);
      if (answer) refused.push(`${describeRequest(request)}\n    → ${answer}`);
    }),
    { numRuns: CASES, seed: SEED, endOnFailure: true },
  );
  return refused;
}

/** The request body schema of an operation in `contract` (the document or a copy of it). */
const bodySchemaOf = (contract: any, operation: DocumentedOperation) =>
  contract.paths[operation.path][operation.method.toLowerCase()].requestBody.content['application/json'].schema;
const operationNamed = (id: string, contract = document) => operationsOf(contract).find((o) => o.operationId === id)!;
const requestTo = (operation: DocumentedOperation, body: unknown): GeneratedRequest => ({
  operationId: operation.operationId,
  method: operation.method,
  path: operation.path.replace('{customer_id}', ids.customer_id![0]!).replace('{transfer_id}', ids.transfer_id![1]!),
  headers: operation.parameters.some((p) => p.name === 'Idempotency-Key') ? { 'idempotency-key': randomUUID() } : {},
  body,
});
/** The operation as a copy of the document without one of its declarations describes it. */
function undeclaring(id: string, field: string): DocumentedOperation {
  const undeclared = structuredClone(document);
  const operation = operationNamed(id, undeclared);
  delete operation.body!.schema.properties![field]!['x-ramp-checks' as never];
  return operation;
}

describe('the contract test finds a rule the document does not declare', () => {
  it("reports a hash of another network than the transfer's once the document stops declaring that rule, and takes it while it does", async () => {
    const complete = operationNamed('completeOfframpTransfer');
    // The seeded off-ramp transfer is on polygon: a Tron hash is well formed, and not one of its network.
    const request = requestTo(complete, { deposit_transaction_hash: 'ab'.repeat(32) });
    expect(generator.isValid(bodySchemaOf(document, complete), request.body)).toBe(true);
    expect(await refusal(request, complete)).toBeNull();
    expect(await refusal(request, undeclaring('completeOfframpTransfer', 'deposit_transaction_hash'))).toContain('invalid_transaction_hash');
  });

  it("reports company_name on an individual once the document stops declaring that names go with the customer's type", async () => {
    const update = operationNamed('updateCustomer');
    const request = requestTo(update, { company_name: 'Analytical Engines Ltd' });
    expect(await refusal(request, update)).toBeNull();
    expect(await refusal(request, undeclaring('updateCustomer', 'company_name'))).toContain('not_allowed');
  });

  it('states Latin-only fields by a pattern, so no schema-valid address is refused as not_latin', async () => {
    const address = operationNamed('submitBusinessAddress');
    const schema = bodySchemaOf(document, address);
    for (const field of ['streetEn', 'townEn', 'state']) {
      expect(generator.isValid(schema.properties[field], 'Дубай'), field).toBe(false);
      expect(generator.isValid(schema.properties[field], 'Sheikh Zayed Rd. 1, Zone – B'), field).toBe(true);
      expect(generator.isValid(schema.properties[field], '   '), field).toBe(false);
    }
    // What the pattern keeps out is refused, and at a field no words declare: the checker reports it.
    const body = {
      userEmail: bodyIds.userEmail![0],
      street: 'شارع',
      streetEn: 'Дубай',
      town: 'دبي',
      townEn: 'Dubai',
      state: 'Dubai',
      country: 'United Arab Emirates',
    };
    expect(await refusal(requestTo(address, body), address)).toContain('not_latin');
  });
});

describe(`requests generated from openapi.json (FUZZ_SEED=${SEED}, ${CASES} per operation)`, () => {
  it('covers every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(40);
  });

  it("sends every body example of the document, with its operation's Idempotency-Key example, and none is refused as invalid", async () => {
    const refused: string[] = [];
    const withExamples = operations.filter((operation) => operation.body?.example !== undefined);
    expect(withExamples.length).toBeGreaterThan(15);
    for (const operation of withExamples) {
      const key = operation.parameters.find((p) => p.name === 'Idempotency-Key');
      const request: GeneratedRequest = {
        operationId: operation.operationId,
        method: operation.method,
        path: operation.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]?.[0] ?? name),
        headers: key ? { 'idempotency-key': String(key.example) } : {},
        body: operation.body!.example,
      };
      const answer = await refusal(request, operation);
      if (answer) refused.push(`${describeRequest(request)}\n    → ${answer}`);
    }
    expect(refused).toEqual([]);
  });

  for (const operation of operations) {
    if (PENDING[operation.operationId]) {
      it.todo(`${operation.operationId}: ${PENDING[operation.operationId]}`);
      continue;
    }
    it(`${operation.operationId}: ${operation.method} ${operation.path} takes every schema-valid request`, async () => {
      expect(await refusedRequests(operation)).toEqual([]);
    });
  }
});
