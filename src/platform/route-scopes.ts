import type { FastifyInstance } from 'fastify';
import type { KeyScope } from '../domain/scopes.js';

/**
 * What a feature's calls need of the key (domain/scopes.ts), declared in one table per module
 * (its `scopes.ts`): each REST route by its operationId, each GraphQL root field as
 * `Type.field` (`Mutation.createCustomer`, `Subscription.events`).
 */
export interface FeatureScopes {
  rest?: Readonly<Record<string, KeyScope>>;
  graphql?: Readonly<Record<string, KeyScope>>;
  /**
   * The GraphQL object types a key without `read` sees whole in a mutation's answer, by the scope that manages
   * them (`ApiKey` with `admin`); every other object there shows its ids only.
   */
  readableTypes?: Readonly<Record<string, KeyScope>>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope the route needs, from its feature's table (set as the route registers). */
    scope?: KeyScope;
  }
}

/** The features' tables as one; a name two features claim stops the start (one of them is wrong). */
export function scopeTable(tables: readonly (Readonly<Record<string, KeyScope>> | undefined)[]): ReadonlyMap<string, KeyScope> {
  const table = new Map<string, KeyScope>();
  for (const entries of tables) {
    for (const [name, scope] of Object.entries(entries ?? {})) {
      if (table.has(name)) throw new Error(`${name} is given a scope twice`);
      table.set(name, scope);
    }
  }
  return table;
}

/**
 * Gives every route that needs a key the scope its feature's table names, as it registers: a route
 * the table leaves out stops the start, so no route can be reached with a key of any scope by
 * being forgotten. The authentication hook checks the scope before anything else runs.
 */
export function assignRouteScopes(app: FastifyInstance, table: ReadonlyMap<string, KeyScope>, needsKey: (url: string) => boolean) {
  app.addHook('onRoute', (route) => {
    if (!needsKey(route.url)) return;
    const operationId = route.config?.contract?.operationId;
    const scope = operationId === undefined ? undefined : table.get(operationId);
    if (!scope)
      throw new Error(`${String(route.method)} ${route.url} (${operationId ?? 'no contract'}) needs an API key but no scope: add it to its module's scopes.ts`);
    route.config = { ...route.config, scope };
  });
}
