import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type ASTNode,
  Kind,
  createSourceEventStream,
  execute,
  getOperationAST,
  visit,
} from 'graphql';

import type { Traced, Tracing } from '../platform/observability/tracing.js';

type Source = AsyncIterator<unknown> & Partial<AsyncIterable<unknown>>;

/**
 * The variables a subscription's selection reads: every one it uses but those only in the root field's
 * arguments (`after`, `types`, `id`), which choose the events (the subscribe does) and not what is
 * shown of each. So subscribers that resume from different cursors still share one execution. This
 * holds because the root subscription fields' `resolve` returns the event and reads no argument.
 */
function variablesOfSelection(document: DocumentNode, operationName: string | null | undefined): string[] {
  const operation = getOperationAST(document, operationName);
  const names = new Set<string>();
  const collect = (node: ASTNode) => visit(node, { Variable: (v) => void names.add(v.name.value) });
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) collect(definition);
  for (const directive of operation?.directives ?? []) collect(directive);
  for (const selection of operation?.selectionSet.selections ?? []) {
    if (selection.kind !== Kind.FIELD) {
      collect(selection); // a fragment at the root: its arguments count too
      continue;
    }
    for (const directive of selection.directives ?? []) collect(directive);
    if (selection.selectionSet) collect(selection.selectionSet);
  }
  return [...names].sort();
}

/**
 * Subscriptions that share their results. The fan-out hands every subscriber of a tenant the same
 * event object; for each event, a subscription's document is executed once per (caller, document,
 * operation, variables its selection reads) and every subscriber with that key takes the same result
 * (serialized per subscriber by graphql-ws: small next to the frame's WebSocket write). Each execution
 * gets a context of its own (`contextFor`), so dataloaders and the EntityManager never outlive one
 * event, and nothing is shared across callers: the key starts with the caller's partner, environment
 * and key.
 */
export interface SharedSubscriptions {
  /** An envelop subscribeFn: the source stream of the subscription, each event executed through the shared results. */
  subscribe(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult>;
  /** Executions run since start (one per event and key, whatever the number of subscribers). */
  readonly executions: number;
}

export interface SharedSubscriptionsOptions<C> {
  /** Who the subscription's context is: never share across different callers. */
  callerOf(context: C): string;
  /** A fresh context for one execution of one event, built from the subscription's. */
  contextFor(context: C): object;
  /** Each execution of an event is a span in the trace of the request that caused it (platform/observability/tracing.ts). */
  tracing?: Tracing;
}

export function sharedSubscriptions<C>(options: SharedSubscriptionsOptions<C>): SharedSubscriptions {
  const selections = new WeakMap<DocumentNode, Map<string, string[]>>();
  // Held as long as the event is (in the buffers of subscribers that have not taken it yet).
  const resultsByEvent = new WeakMap<object, Map<string, Promise<ExecutionResult>>>();
  let executions = 0;

  function selectionVariables(document: DocumentNode, operationName: string | null | undefined): string[] {
    const byOperation = selections.get(document) ?? new Map<string, string[]>();
    selections.set(document, byOperation);
    const names = byOperation.get(operationName ?? '') ?? variablesOfSelection(document, operationName);
    byOperation.set(operationName ?? '', names);
    return names;
  }

  function keyOf(args: ExecutionArgs): string {
    const variables = args.variableValues ?? {};
    const read = selectionVariables(args.document, args.operationName).filter((name) => name in variables);
    return JSON.stringify([
      options.callerOf(args.contextValue as C),
      args.operationName ?? null,
      args.document.loc?.source.body ?? null,
      read.map((name) => [name, variables[name]]),
    ]);
  }

  function run(args: ExecutionArgs, event: unknown): Promise<ExecutionResult> {
    executions++;
    const push = async () => execute({ ...args, rootValue: event, contextValue: options.contextFor(args.contextValue as C) }) as ExecutionResult;
    const { tracing } = options;
    if (!tracing?.enabled) return push();
    // One span per execution, shared by every subscriber it is pushed to, in the trace of the event's request.
    const attributes = { 'graphql.operation.type': 'subscription', ...(args.operationName && { 'graphql.operation.name': args.operationName }) };
    return tracing.inSpan('graphql.subscription.push', { attributes }, tracing.continuing((event as Traced | null)?.trace), push);
  }

  function resultFor(args: ExecutionArgs, key: string | null, event: unknown): Promise<ExecutionResult> {
    // Only an event object handed to several subscribers can be shared; without the document's text, nothing is.
    if (key === null || typeof event !== 'object' || event === null) return run(args, event);
    const results = resultsByEvent.get(event) ?? new Map<string, Promise<ExecutionResult>>();
    resultsByEvent.set(event, results);
    const result = results.get(key) ?? run(args, event);
    results.set(key, result);
    return result;
  }

  return {
    async subscribe(args) {
      const source = await createSourceEventStream(args);
      if (!(Symbol.asyncIterator in (source as object))) return source as ExecutionResult;
      const events = source as Source;
      const key = args.document.loc ? keyOf(args) : null;
      // Not an async generator: return() must reach the stream at once, even while it waits for an event.
      return {
        async next() {
          const step = await events.next();
          return step.done ? step : { done: false, value: await resultFor(args, key, step.value) };
        },
        return: async (value?: unknown) => (await events.return?.(value)) ?? { done: true, value: undefined },
        throw: async (error?: unknown) => (await events.throw?.(error)) ?? Promise.reject(error),
        [Symbol.asyncIterator]() {
          return this;
        },
      } as AsyncIterableIterator<ExecutionResult>;
    },

    get executions() {
      return executions;
    },
  };
}
