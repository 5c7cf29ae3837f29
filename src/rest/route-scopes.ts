import type { FastifyInstance } from 'fastify';

/**
 * Checks, as each route registers, that a route that needs a key declares the scope it needs in its contract
 * (`contract({ scope: 'write', … })`): a route that does not stops the start, so no route can be reached with a key
 * of any scope by being forgotten. The authentication hook checks the scope before anything else runs.
 */
export function requireRouteScopes(app: FastifyInstance, needsKey: (url: string) => boolean) {
  app.addHook('onRoute', (route) => {
    if (!needsKey(route.url) || route.config?.contract?.scope) return;
    const operationId = route.config?.contract?.operationId;
    throw new Error(`${String(route.method)} ${route.url} (${operationId ?? 'no contract'}) needs an API key but declares no scope in its contract`);
  });
}
