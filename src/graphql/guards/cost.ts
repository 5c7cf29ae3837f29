import { type ExecutionArgs, type ExecutionResult, GraphQLError } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import type { CostBudget, BucketState } from '../../platform/security/cost-budget.js';
import type { Metrics } from '../../platform/observability/metrics.js';
import type { GraphQLContext } from '../context.js';
import { operationComplexity } from './limits.js';

/** `extensions.cost` of a GraphQL response (Shopify's names). */
export interface OperationCost {
  requestedQueryCost: number;
  actualQueryCost: number;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/** The cost of the operation about to run: its price (prices.ts), the figure the complexity limit checked. */
export const requestedCost = (args: ExecutionArgs): number => operationComplexity(args);

const withCost = <R extends { extensions?: Record<string, unknown> }>(result: R, cost: OperationCost): R => ({
  ...result,
  extensions: { ...result.extensions, cost },
});

/**
 * Sets `extensions.cost` on the answer: a single result, or the first part of an incremental one (@defer,
 * @stream), which is what the whole operation was charged; later parts cost nothing more.
 */
function reportingCost(cost: OperationCost) {
  return (payload: Parameters<typeof handleStreamOrSingleExecutionResult>[0]) => {
    let first = true;
    return handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
      if (!first) return;
      first = false;
      setResult(withCost(result, cost));
    });
  };
}

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
      if (!context.actor) return { onExecuteDone: reportingCost(cost) };
      if (requestedQueryCost > budget.maximum) {
        const error = refusal(
          `This operation costs ${requestedQueryCost} points, more than a full cost bucket holds (${budget.maximum})`,
          'MAX_COST_EXCEEDED',
          400,
        );
        return setResultAndStopExecution(withCost<ExecutionResult>({ errors: [error] }, { ...cost, actualQueryCost: 0 }));
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
        return setResultAndStopExecution(
          withCost<ExecutionResult>({ errors: [error] }, { ...cost, actualQueryCost: 0, throttleStatus: throttleStatus(state) }),
        );
      }
      return { onExecuteDone: reportingCost({ ...cost, throttleStatus: throttleStatus(state) }) };
    },
  };
}

const refusal = (message: string, code: string, status: number, headers?: Record<string, string>) =>
  new GraphQLError(message, { extensions: { code, http: { status, ...(headers && { headers }) } } });
