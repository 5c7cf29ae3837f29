import { useGraphQlJit } from '@envelop/graphql-jit';
import type { Plugin } from '@envelop/core';
import { type DocumentNode, type ExecutionResult, getOperationAST } from 'graphql';
import { positionedIn } from './types/error-place.js';
import { asksForIncrementalDelivery } from './incremental.js';

/**
 * Queries run compiled by graphql-jit: each document (Yoga's parse cache keeps it) becomes one
 * function that calls the resolvers directly, instead of graphql-js walking the document for every
 * field of every row. A page of 100 transfers resolves over a thousand fields: that walk was a tenth
 * of the time. Mutations and subscriptions keep graphql-js: they are not where the time goes, and a
 * subscription's stream runs through graphql-ws, which graphql-jit is not built for. Nor can it deliver a
 * query in parts: one that names @defer or @stream runs on Yoga's own executor (@graphql-tools/executor),
 * and every other query stays compiled (incremental.ts; decision 024).
 * A document it cannot compile answers its errors to the client; `refused` hears of it (the plugin would
 * otherwise print it to stderr, a line that is not JSON in the JSON log stream).
 */
export const useCompiledQueries = (refused: (result: ExecutionResult) => void) =>
  useGraphQlJit({}, { enableIf: ({ document, operationName }) => runsCompiled(document, operationName), onError: refused });

/** Which operations graphql-jit runs: queries, except those that ask for parts. */
export const runsCompiled = (document: DocumentNode, operationName?: string | null) =>
  getOperationAST(document, operationName)?.operation === 'query' && !asksForIncrementalDelivery(document);

/**
 * A compiled query's field errors keep their `locations` on the wire: graphql-jit gives them locations
 * without the positions Yoga rebuilds errors from, so each gets its positions in the document.
 */
export const useErrorLocations = (): Plugin => ({
  onExecute: ({ args }) => ({
    onExecuteDone: ({ result, setResult }) => {
      const source = args.document.loc?.source;
      if (!source || !('errors' in result) || !result.errors?.length) return;
      setResult({ ...result, errors: result.errors.map((error) => positionedIn(source, error)) });
    },
  }),
});
