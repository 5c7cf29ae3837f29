import { type ExecutionArgs, type ExecutionResult, getOperationAST, GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CostBudget, BucketState } from '../platform/cost-budget.js';
import type { Metrics } from '../platform/metrics.js';
import type { GraphQLContext } from './context.js';
import { operationComplexity } from './limits.js';

/** What a mutation's root field costs on top of its selection: a write is dearer than the fields it returns. */
export const MUTATION_COST = 10;

/** `extensions.cost` of a GraphQL response (Shopify's names). */
export interface OperationCost {
  requestedQueryCost: number;
  actualQueryCost: number;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** The cost of the operation about to run: its complexity, and MUTATION_COST for each root field of a mutation. */
export function requestedCost(args: ExecutionArgs): number {
  const operation = getOperationAST(args.document, args.operationName);
  const writes = operation?.operation === 'mutation' ? operation.selectionSet.selections.length : 0;
  return operationComplexity(args) + writes * MUTATION_COST;
}

const withCost = (result: ExecutionResult, cost: OperationCost): ExecutionResult => ({ ...result, extensions: { ...result.extensions, cost } });

/**
 * Charges each GraphQL operation sent over HTTP to its API key's cost bucket before it runs, and
 * tells the client where the bucket stands in `extensions.cost` of every answer. An operation
 * costing more than the bucket holds now is refused unrun: THROTTLED, HTTP 429 with Retry-After; one
 * costing more than a full bucket can never run: MAX_COST_EXCEEDED. Subscriptions (graphql-ws) are
 * not charged: they are bounded per key by SUBSCRIPTIONS_PER_KEY, and their events are pushed, not asked for.
 */
export function useCostBudget(budget: CostBudget, metrics?: Metrics): Plugin {
  const throttleStatus = (state: BucketState) => ({
    maximumAvailable: budget.maximum,
    currentlyAvailable: state.available,
    restoreRate: budget.restoreRate,
  });
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as unknown as GraphQLContext & { req?: unknown };
      if (!context.req) return; // a subscription's event: not charged
      const requestedQueryCost = requestedCost(args);
      const cost = { requestedQueryCost, actualQueryCost: requestedQueryCost };
      if (!context.actor) return { onExecuteDone: ({ result, setResult }) => setResult(withCost(result as ExecutionResult, cost)) };
      if (requestedQueryCost > budget.maximum) {
        const error = refusal(
          `This operation costs ${requestedQueryCost} points, more than a full cost bucket holds (${budget.maximum})`,
          'MAX_COST_EXCEEDED',
          400,
        );
        return setResultAndStopExecution(withCost({ errors: [error] }, { ...cost, actualQueryCost: 0 }));
      }
      const state = await budget.take(context.actor.apiKeyId, requestedQueryCost);
      if (!state.taken) {
        metrics?.graphqlThrottled();
        const error = refusal(
          `Throttled: this operation costs ${requestedQueryCost} points and the key's cost bucket holds ${state.available}; retry in ${state.retryAfterSeconds} s`,
          'THROTTLED',
          429,
          { 'retry-after': String(state.retryAfterSeconds) },
        );
        return setResultAndStopExecution(withCost({ errors: [error] }, { ...cost, actualQueryCost: 0, throttleStatus: throttleStatus(state) }));
      }
      return {
        onExecuteDone: ({ result, setResult }) => setResult(withCost(result as ExecutionResult, { ...cost, throttleStatus: throttleStatus(state) })),
      };
    },
  };
}

const refusal = (message: string, code: string, status: number, headers?: Record<string, string>) =>
  new GraphQLError(message, { extensions: { code, http: { status, ...(headers && { headers }) } } });
