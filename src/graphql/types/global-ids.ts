import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes, completeValue } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';

/**
 * A global id: base64 of `Type:id`, as Pothos' relay plugin writes it. Type names and uuids are
 * ASCII, so btoa gives the same text without a Buffer per id (300 a page of transfers).
 */
export const globalIdOf = (typename: string, id: string | number | bigint) => btoa(`${typename}:${id}`);

type IdResolver = (parent: unknown, args: object, context: unknown, info: unknown) => unknown;

/**
 * Pothos' relay plugin resolves every node's `id` as an async function, so each costs a promise
 * even though our ids are at hand: 300 a page of transfers with their quotes and customers. This
 * plugin (Pothos' public plugin API, `wrapResolve`) resolves the `id` of a node type declared with
 * `id: { resolve }` the same way, with `globalIdOf`, and synchronously when that resolver is. It
 * replaces only the relay plugin's own resolver, so it must come last in the builder's plugins
 * (innermost): a resolver another plugin wrapped is left as it is.
 */
export class SyncGlobalIdsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    if (fieldConfig.name !== 'id' || fieldConfig.kind !== 'Object' || resolver !== fieldConfig.resolve) return resolver;
    const type = this.buildCache.getTypeConfig(fieldConfig.parentType);
    const id = (type.pothosOptions as { id?: { resolve?: IdResolver } }).id?.resolve;
    if (type.kind !== 'Object' || typeof id !== 'function') return resolver;
    const name = type.name;
    return (parent, args, context, info) =>
      completeValue(id(parent, args, context, info), (value) => (value == null ? value : globalIdOf(name, String(value))));
  }
}

declare global {
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      syncGlobalIds: SyncGlobalIdsPlugin<Types>;
    }
  }
}

export const syncGlobalIdsPlugin = 'syncGlobalIds' as const;
// Once per process: @pothos/core keeps its plugin registry for the process, while a module of ours may be evaluated
// again (a test worker runs many files); Pothos refuses a second implementation under the same name.
const registered = Symbol.for('ramp.pothos.syncGlobalIds');
const processWide = globalThis as { [registered]?: true };
if (!processWide[registered]) {
  SchemaBuilder.registerPlugin(syncGlobalIdsPlugin, SyncGlobalIdsPlugin);
  processWide[registered] = true;
}
