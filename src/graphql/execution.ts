import { useGraphQlJit } from '@envelop/graphql-jit';
import { getOperationAST } from 'graphql';

/**
 * Queries run compiled by graphql-jit: each document (Yoga's parse cache keeps it) becomes one
 * function that calls the resolvers directly, instead of graphql-js walking the document for every
 * field of every row. A page of 100 transfers resolves over a thousand fields: that walk was a tenth
 * of the time. Mutations and subscriptions keep graphql-js: they are not where the time goes, and a
 * subscription's stream runs through graphql-ws, which graphql-jit is not built for.
 */
export const useCompiledQueries = () =>
  useGraphQlJit({}, { enableIf: ({ document, operationName }) => getOperationAST(document, operationName)?.operation === 'query' });
