import SchemaBuilder from '@pothos/core';
import RelayPlugin, { encodeGlobalID } from '@pothos/plugin-relay';
import { type GraphQLObjectType, type GraphQLResolveInfo, graphqlSync } from 'graphql';
import { describe, expect, it } from 'vitest';
import { globalIdOf, syncGlobalIdsPlugin } from '../../src/graphql/types/global-ids.js';

/**
 * Node ids are resolved by a Pothos plugin of ours (graphql/types/global-ids.ts, Pothos' public plugin API),
 * not by replacing the relay plugin's `globalID`: synchronously when the type's id resolver is, with
 * the relay plugin's encoding.
 */
function schemaOf(plugins: ('relay' | typeof syncGlobalIdsPlugin)[]) {
  const builder = new SchemaBuilder<{ DefaultFieldNullability: false }>({
    plugins: plugins.map((p) => (p === 'relay' ? RelayPlugin : p)),
    defaultFieldNullability: false,
    relay: { encodeGlobalID: globalIdOf },
    // Ramp's other plugins declare required options globally (scopeAuth); this builder uses none of them.
  } as never);
  const Thing = builder.nodeRef<{ id: string }>('Thing', { id: { resolve: (thing) => thing.id } });
  Thing.implement({ fields: (t) => ({ name: t.string({ resolve: () => 'a thing' }) }) });
  const Later = builder.nodeRef<{ id: string }>('Later', { id: { resolve: async (thing) => thing.id } });
  Later.implement({ fields: (t) => ({ name: t.string({ resolve: () => 'later' }) }) });
  builder.queryType({
    fields: (t) => ({
      thing: t.field({ type: Thing, resolve: () => ({ id: 'a1' }) }),
      later: t.field({ type: Later, resolve: () => ({ id: 'b2' }) }),
    }),
  });
  return builder.toSchema();
}

const idResolver = (schema: ReturnType<typeof schemaOf>, type: string) => (schema.getType(type) as GraphQLObjectType).getFields().id!.resolve!;
const info = {} as GraphQLResolveInfo;

describe('global ids', () => {
  it('resolves a node id synchronously, as the relay plugin encodes it', () => {
    const schema = schemaOf(['relay', syncGlobalIdsPlugin]);
    expect(idResolver(schema, 'Thing')({ id: 'a1' }, {}, {}, info)).toBe(encodeGlobalID('Thing', 'a1'));
    expect(graphqlSync({ schema, source: '{ thing { id name } }' })).toEqual({ data: { thing: { id: encodeGlobalID('Thing', 'a1'), name: 'a thing' } } });
  });

  it('still answers an id whose resolver is async', async () => {
    const schema = schemaOf(['relay', syncGlobalIdsPlugin]);
    await expect(idResolver(schema, 'Later')({ id: 'b2' }, {}, {}, info)).resolves.toBe(encodeGlobalID('Later', 'b2'));
  });

  it('is needed: the relay plugin alone answers every id with a promise', () => {
    const schema = schemaOf(['relay']);
    expect(idResolver(schema, 'Thing')({ id: 'a1' }, {}, {}, info)).toBeInstanceOf(Promise);
  });
});
