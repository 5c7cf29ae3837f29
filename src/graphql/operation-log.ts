import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** What the GraphQL plugin needs of the Fastify request: its logger (pino's child of the request). */
type LoggedRequest = { log?: { setBindings?(bindings: Record<string, unknown>): void } };

/**
 * Names a GraphQL request's operation (`operationType`, `operationName`, null when anonymous) on every line
 * its request logs from then on, Fastify's "request completed" included: `POST /graphql` alone says nothing
 * of what ran. Set once the document is parsed, so a refused operation (over a limit, throttled) is named too.
 */
export function useOperationInLog(): Plugin {
  return {
    onParse({ context }) {
      return ({ result }) => {
        const { req, params } = context as { req?: LoggedRequest; params?: { operationName?: string | null } };
        if (!req?.log?.setBindings || !result || !('kind' in result)) return;
        const operation = getOperationAST(result, params?.operationName ?? undefined);
        if (operation) req.log.setBindings({ operationType: operation.operation, operationName: operation.name?.value ?? null });
      };
    },
  };
}
