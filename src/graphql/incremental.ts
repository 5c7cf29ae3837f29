import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { BREAK, type DocumentNode, GraphQLError, type ValidationRule, visit } from 'graphql';
import { createGraphQLError, handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';

/**
 * `@defer` and `@stream`, declared in the schema itself (not added by Yoga's plugin at run time), so
 * schema.graphql shows them and the tools that check operations against it (graphql-codegen,
 * relay-compiler) accept them. The definitions @graphql-tools/executor reads its arguments with.
 */
export const INCREMENTAL_DIRECTIVES = [GraphQLDeferDirective, GraphQLStreamDirective];

const INCREMENTAL = new Set(['defer', 'stream']);
/** Per parsed document (Yoga's parse cache hands the same one back), so the hot path pays a lookup. */
const asksIncremental = new WeakMap<DocumentNode, boolean>();

/** Whether a document names @defer or @stream anywhere: it then runs on the executor that delivers in parts. */
export function asksForIncrementalDelivery(document: DocumentNode): boolean {
  let asks = asksIncremental.get(document);
  if (asks === undefined) {
    asks = false;
    visit(document, {
      Directive(directive) {
        if (!INCREMENTAL.has(directive.name.value)) return;
        asks = true;
        return BREAK;
      },
    });
    asksIncremental.set(document, asks);
  }
  return asks;
}

/**
 * @defer and @stream in queries only. A mutation's answer is what an idempotent retry replays, whole;
 * a subscription's events are executed once for all their subscribers (shared-subscriptions.ts) and a
 * webhook's are one delivery each: none of them has a place for later parts.
 */
export const incrementalInQueriesOnly: ValidationRule = (context) => ({
  OperationDefinition(operation) {
    if (operation.operation === 'query') return;
    visit(operation, {
      Directive(directive) {
        if (!INCREMENTAL.has(directive.name.value)) return;
        context.reportError(
          new GraphQLError(`@${directive.name.value} is served in queries only, not in a ${operation.operation}`, {
            nodes: [directive],
            extensions: { code: 'INCREMENTAL_DELIVERY_QUERIES_ONLY' },
          }),
        );
      },
    });
  },
});

/** The media types an incremental answer can travel in (Yoga's result processors for async results). */
const INCREMENTAL_MEDIA_TYPES = ['multipart/mixed', 'text/event-stream', '*/*', 'multipart/*'];

function acceptsIncremental(accept: string | null): boolean {
  if (!accept) return true;
  return accept
    .toLowerCase()
    .split(',')
    .some((part) => INCREMENTAL_MEDIA_TYPES.includes(part.split(';')[0]?.trim() ?? ''));
}

type IncrementalPayload = { incremental?: { errors?: readonly GraphQLError[] }[] };
type MaskError = (error: unknown, message: string) => Error;

/**
 * Incremental delivery over HTTP: Yoga's rules for the directives, the queries-only rule above, a
 * clear refusal for a client that accepts neither multipart/mixed nor text/event-stream, and the
 * same error masking for the later parts as for the first. Yoga masks a result's top-level
 * `errors`; a deferred fragment's errors travel inside `incremental[]`, where it does not look.
 */
export function useIncrementalDelivery(maskError: MaskError, message = 'Unexpected error.'): Plugin {
  const deferStream = useDeferStream() as Plugin;
  const masked = (payload: IncrementalPayload): IncrementalPayload =>
    payload.incremental?.some((part) => part.errors?.length)
      ? {
          ...payload,
          incremental: payload.incremental.map((part) =>
            part.errors?.length ? { ...part, errors: part.errors.map((error) => maskError(error, message) as GraphQLError) } : part,
          ),
        }
      : payload;
  return {
    onValidate(payload) {
      deferStream.onValidate?.(payload as never);
      payload.addValidationRule(incrementalInQueriesOnly);
    },
    onExecute({ args, setResultAndStopExecution }) {
      if (!asksForIncrementalDelivery(args.document)) return;
      const request = (args.contextValue as { request?: Request }).request;
      if (request && !acceptsIncremental(request.headers.get('accept'))) {
        return setResultAndStopExecution({
          errors: [
            createGraphQLError('@defer and @stream answer in parts: send Accept: multipart/mixed or text/event-stream', {
              extensions: { code: 'INCREMENTAL_DELIVERY_NOT_ACCEPTED', http: { status: 406 } },
            }),
          ],
        });
      }
      return {
        onExecuteDone: (done) =>
          handleStreamOrSingleExecutionResult(done, ({ result, setResult }) => {
            const next = masked(result as IncrementalPayload);
            if (next !== result) setResult(next as never);
          }),
      };
    },
  };
}
