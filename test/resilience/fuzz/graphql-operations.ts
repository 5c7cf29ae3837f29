import { encodeGlobalID } from '@pothos/plugin-relay';
import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import type { FuzzRequest } from './answers.js';
import { contentType, deepJson, headerText, hostileAmount, hostileJson, hostileString, malformedJson } from './hostile-values.js';

/** A value for an input type: usually plausible, sometimes hostile at any level, so coercion and the resolvers both get tried. */
function valueFor(type: GraphQLInputType, ids: string[], depth = 0): fc.Arbitrary<unknown> {
  const hostile = fc.oneof(hostileJson, hostileString, hostileAmount);
  let plausible: fc.Arbitrary<unknown>;
  if (isNonNullType(type)) return valueFor(type.ofType, ids, depth);
  if (isListType(type)) plausible = fc.array(valueFor(type.ofType, ids, depth + 1), { maxLength: 3 });
  else if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    plausible =
      depth > 3 ? fc.constant({}) : fc.record(Object.fromEntries(fields.map((f) => [f.name, valueFor(f.type, ids, depth + 1)])), { requiredKeys: [] });
  } else if (isEnumType(type)) plausible = fc.constantFrom(...type.getValues().map((v) => v.name));
  else {
    const scalars: Record<string, fc.Arbitrary<unknown>> = {
      ID: fc.oneof(fc.constantFrom(...ids), fc.uuid(), hostileString),
      String: hostileString,
      Int: fc.oneof(fc.integer({ min: -5, max: 150 }), fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 1e100)),
      Float: fc.double(),
      Boolean: fc.boolean(),
      Decimal: fc.oneof(fc.constantFrom('100.00', '1', '0.5'), hostileAmount),
      DateTime: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.constantFrom('-271821-04-20T00:00:00Z', '+275760-09-13T00:00:00Z', '2024-02-30T00:00:00Z', 'yesterday'),
      ),
      JSON: hostileJson,
    };
    plausible = scalars[type.name] ?? hostileString;
  }
  return fc.oneof({ arbitrary: plausible, weight: 4 }, { arbitrary: hostile, weight: 1 }, { arbitrary: fc.constant(null), weight: 1 });
}

/** `{ __typename }` is a valid selection of every object, interface and union. */
const selectionOf = (field: GraphQLField<unknown, unknown>) => (isLeafType(getNamedType(field.type)) ? '' : ' { __typename }');

/**
 * Id arguments accept a REST UUID or a global id: every seeded UUID as the global id of every Node
 * type, so an id argument gets its own type's ids (a hit) as well as another type's (a miss).
 */
export function globalIdsOf(schema: GraphQLSchema, ids: string[]): string[] {
  const nodeTypes = Object.values(schema.getTypeMap()).filter((type) => isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node'));
  return nodeTypes.flatMap((type) => ids.map((id) => encodeGlobalID(type.name, id)));
}

/** Every query and mutation with every argument passed as a variable of its declared type. */
export function fieldOperations(schema: GraphQLSchema, restIds: string[]): fc.Arbitrary<{ query: string; variables: unknown }> {
  const ids = [...restIds, ...globalIdsOf(schema, restIds)];
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const;
  const operations = roots.flatMap(([kind, root]) =>
    Object.values(root?.getFields() ?? {}).map((field) => {
      const definitions = field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
      const args = field.args.map((a) => `${a.name}: $${a.name}`).join(', ');
      const query = `${kind}${definitions ? `(${definitions})` : ''} { ${field.name}${args ? `(${args})` : ''}${selectionOf(field)} }`;
      const variables = fc.record(Object.fromEntries(field.args.map((a) => [a.name, valueFor(a.type, ids)])), { requiredKeys: [] });
      return variables.map((v) => ({ query, variables: v as unknown }));
    }),
  );
  return fc.oneof(...operations);
}

const connection = (name: string, first: number, inner: string) => `${name}(first: ${first}) { edges { node { ${inner} } } }`;

/** Documents built to cost too much: nested connections, alias, fragment and directive bombs, huge and malformed text. */
export const costlyDocument: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 100 })).map(([levels, first]) => {
    let inner = 'id';
    for (let i = 0; i < levels; i++) inner = `customer { ${connection('transfers', first, inner)} }`;
    return `{ ${connection('transfers', first, inner)} }`;
  }),
  fc.integer({ min: 1, max: 100 }).map((first) => `{ ${connection('customers', first, connection('transfers', first, 'id customer { id email }'))} }`),
  fc.integer({ min: 10, max: 3000 }).map((n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`),
  fc.integer({ min: 2, max: 30 }).map((n) => {
    const fragments = Array.from(
      { length: n },
      (_, i) => `fragment F${i} on Query { ${i === n - 1 ? 'customers { edges { cursor } }' : `...F${i + 1} ...F${i + 1}`} }`,
    );
    return `{ ...F0 } ${fragments.join(' ')}`;
  }),
  fc.constant('{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }'),
  fc.integer({ min: 2, max: 500 }).map((n) => `{ __typename ${'@include(if: true) '.repeat(n)}}`),
  fc.integer({ min: 5, max: 40 }).map((n) => `{ ${'node(id: "x") { ... on Customer { '.repeat(n)} id ${'} } '.repeat(n)}}`),
  fc.integer({ min: 1, max: 300 }).map((n) => `{ nodes(ids: [${Array.from({ length: n }, (_, i) => `"${i}"`).join(', ')}]) { id } }`),
  fc.integer({ min: 100, max: 20_000 }).map((n) => `{ ${'__typename '.repeat(n)}}`),
  fc.integer({ min: 10, max: 5000 }).map((n) => '{'.repeat(n) + '}'.repeat(n)),
  fc.constantFrom(
    '',
    '{',
    'query',
    'subscription { events { cursor } }',
    '{ nope }',
    '{ customers { edges { node { nope } } } }',
    'mutation { createCustomer }',
    '{ __schema { types { name } } }',
    '{ customer(id: "\\u0000") { id } }',
  ),
  hostileString,
);

/** A POST (or GET) to /graphql with something wrong in it. */
export function hostileGraphQLRequest(schema: GraphQLSchema, ids: string[], key: string): fc.Arbitrary<FuzzRequest> {
  const document = fc.oneof(
    { arbitrary: fieldOperations(schema, ids).map((o) => JSON.stringify(o)), weight: 10 },
    { arbitrary: costlyDocument.map((query) => JSON.stringify({ query })), weight: 4 },
    {
      arbitrary: fc
        .tuple(fc.oneof(hostileString, costlyDocument), hostileJson, fc.option(hostileString))
        .map(([query, variables, operationName]) => JSON.stringify({ query, variables, operationName })),
      weight: 2,
    },
    { arbitrary: deepJson('1').map((deep) => `{"query":"{ __typename }","variables":{"a":${deep}}}`), weight: 1 },
    { arbitrary: fc.array(fc.constant({ query: '{ __typename }' }), { minLength: 1, maxLength: 50 }).map((batch) => JSON.stringify(batch)), weight: 1 },
    { arbitrary: malformedJson, weight: 2 },
  );
  return fc
    .record({
      body: document,
      authorization: fc.oneof({ arbitrary: fc.constant(`Bearer ${key}`), weight: 8 }, { arbitrary: headerText, weight: 1 }),
      contentType: fc.oneof({ arbitrary: fc.constant('application/json'), weight: 8 }, { arbitrary: contentType, weight: 1 }),
      accept: fc.constantFrom(undefined, 'application/json', 'application/graphql-response+json', 'text/event-stream', 'text/html', '*/*'),
      asGet: fc.nat(9).map((n) => n === 0),
    })
    .map((r) => {
      const headers: Record<string, string> = { authorization: r.authorization, 'content-type': r.contentType, ...(r.accept ? { accept: r.accept } : {}) };
      if (!r.asGet) return { method: 'POST', path: '/graphql', headers, body: r.body };
      let params: Record<string, string> = {};
      try {
        const parsed = JSON.parse(r.body) as Record<string, unknown>;
        params = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
      } catch {
        params = { query: r.body };
      }
      return { method: 'GET', path: `/graphql?${new URLSearchParams(params).toString()}`, headers: { ...headers, 'x-graphql-yoga-csrf': '1' } };
    });
}
