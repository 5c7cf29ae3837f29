import type { FastifyRequest } from 'fastify';
import { type DocumentNode, type ExecutionResult, type GraphQLSchema, Kind, getOperationAST, visit, BREAK } from 'graphql';
import { type Plugin, type YogaServerInstance, processRegularResult } from 'graphql-yoga';
import type { Actor } from '../domain/environment.js';
import { asksForIncrementalDelivery } from './incremental.js';
import { TrustedDocuments } from './guards/trusted-documents.js';

/** A GraphQL request's parameters, as a JSON body names them. */
export interface PlainParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
}

/** What the direct path answers: the status, headers and body Yoga's own result processing made. */
export interface DirectAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The context a request's operation starts from (Yoga's `serverContext` with its `request` and `params`). */
type InitialContext = { req: FastifyRequest; reply: unknown; request: HeadersOnly; params: PlainParams; actor: Actor };

/** The part of a Fetch request Yoga's hooks read here: its method and headers (Content-Type, Accept, CSRF headers). */
type HeadersOnly = { method: string; url: string; headers: { get(name: string): string | null; has(name: string): boolean } };

type ResultProcessHook = NonNullable<Plugin['onResultProcess']>;
type RequestParseHook = NonNullable<Plugin['onRequestParse']>;

/**
 * Yoga-level hooks this path does not run. A plugin that declares one would be skipped here, so Ramp does not start
 * with it. `onParams` is not run either: the one plugin that declares it (trusted documents) acts only on a request
 * naming a document by hash, which this path leaves to Yoga.
 */
const UNRUN_HOOKS = ['onRequest', 'onResponse', 'onExecutionResult'] as const;

const PARAM_NAMES = new Set(['query', 'variables', 'operationName', 'extensions']);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optional = (value: unknown, is: (v: unknown) => boolean) => value === undefined || value === null || is(value);

/**
 * The parameters of a request the direct path may answer, else null: a POST of one JSON document that names a query
 * by its text and nothing else Yoga reads. A batch, a trusted document named by hash, a GET, a form or a malformed
 * body goes to Yoga, which answers or refuses it as before.
 */
function plainParams(req: FastifyRequest): PlainParams | null {
  if (req.method !== 'POST' || !/^application\/json\s*(;|$)/.test(req.headers['content-type'] ?? '')) return null;
  const body = req.body;
  if (!isObject(body) || typeof body.query !== 'string' || body.query === '') return null;
  for (const key in body) if (!PARAM_NAMES.has(key)) return null;
  if (!optional(body.variables, isObject) || !optional(body.operationName, (v) => typeof v === 'string') || !optional(body.extensions, isObject)) return null;
  if (TrustedDocuments.idOf(body) !== null) return null;
  return body as unknown as PlainParams;
}

/** Yoga's result processors build a Fetch Response; this one keeps what they give it, with no stream or Headers object. */
class KeptResponse {
  constructor(
    readonly body: string | null,
    readonly init: { status?: number; headers?: Record<string, string> } = {},
  ) {}
}

/**
 * Answers a plain query (POSTed as JSON, named by its text) through Yoga's own pipeline: the plugins' checks of the
 * request, the envelop orchestration of every plugin (parse and validation from Yoga's caches, limits, scopes, cost,
 * the compiled execution, masking, metrics, tracing) and their result hooks, without Yoga's Fetch-API layer around
 * them: no Request proxy, Headers, AbortController or Response per request. That layer cost a read as much CPU as Fastify and the database driver
 * together (bench/results/2026-11-29-p1-reads.md).
 *
 * Only what cannot change an answer is left to choose: nothing runs before the document has parsed and validated
 * as a query that asks for no parts and the caller's key has been verified; any other request, and any of these that
 * fails, goes to Yoga untouched, so its refusal and its audit row are Yoga's own. Once the operation runs, its answer
 * is this path's: every result hook the plugins declare sees it, as Yoga's would, so a refusal during execution
 * (a scope, a limit on the variables, the cost budget) is answered and audited the same way. Mutations keep Yoga's
 * path (graphql-jit runs queries only, and writes are not where a read's time goes).
 */
export function directQueries(
  trustedOnly: boolean,
  yoga: YogaServerInstance<Record<string, unknown>, Record<string, unknown>>,
  plugins: readonly Plugin[],
  callerOf: (req: FastifyRequest, query: string) => Promise<Actor | null>,
  maskError: (error: unknown, message: string) => Error,
) {
  for (const plugin of plugins) {
    const unrun = UNRUN_HOOKS.filter((hook) => hook in plugin);
    if (unrun.length) throw new Error(`A GraphQL plugin declares ${unrun.join(', ')}, which direct-queries.ts does not run`);
  }
  const requestHooks = plugins.flatMap((plugin): RequestParseHook[] => (plugin.onRequestParse ? [plugin.onRequestParse] : []));
  const resultHooks = plugins.flatMap((plugin): ResultProcessHook[] => (plugin.onResultProcess ? [plugin.onResultProcess] : []));

  /**
   * The plugins' checks of the HTTP request itself (CSRF headers, whether introspection is allowed), as Yoga runs them
   * before reading the parameters; false when one refuses or answers the request itself: Yoga's path then does.
   */
  async function admitted(request: HeadersOnly, serverContext: InitialContext): Promise<boolean> {
    let ended = false;
    try {
      for (const hook of requestHooks) {
        const after = await hook({
          request: request as never,
          // Parsed only for a hook that reads it (none of Ramp's plugins does).
          get url() {
            return new URL(request.url, 'http://localhost');
          },
          requestParser: undefined,
          serverContext: serverContext as never,
          setRequestParser: () => undefined,
          endResponse: () => {
            ended = true;
          },
          fetchAPI: undefined as never,
        });
        if (ended) return false;
        after?.onRequestParseDone?.({ requestParserResult: serverContext.params as never, setRequestParserResult: () => (ended = true) });
        if (ended) return false;
      }
    } catch {
      return false;
    }
    return true;
  }

  return async function answer(req: FastifyRequest, reply: unknown): Promise<DirectAnswer | null> {
    const params = trustedOnly ? null : plainParams(req);
    if (!params) return null;
    const actor = await callerOf(req, params.query);
    if (!actor) return null;
    const request: HeadersOnly = { method: 'POST', url: req.url, headers: { get: (name) => headerOf(req, name), has: (name) => headerOf(req, name) !== null } };
    const initial: InitialContext = { req, reply, request, params, actor };
    if (!(await admitted(request, initial))) return null;
    const enveloped = yoga.getEnveloped(initial as never);
    let document: ReturnType<typeof enveloped.parse>;
    try {
      document = enveloped.parse(params.query);
    } catch {
      return null;
    }
    if (getOperationAST(document, params.operationName)?.operation !== 'query' || asksForIncrementalDelivery(document)) return null;
    if (validatedFor.get(document) !== enveloped.schema) {
      if (enveloped.validate(enveloped.schema, document).length) return null;
      if (!asksForIntrospection(document)) validatedFor.set(document, enveloped.schema);
    }
    // Nothing has run yet: a context that cannot be made is Yoga's to answer.
    const contextValue = await Promise.resolve(enveloped.contextFactory()).catch(() => null);
    if (!contextValue) return null;

    let result: ExecutionResult;
    try {
      result = (await enveloped.execute({
        schema: enveloped.schema,
        document,
        contextValue,
        variableValues: params.variables,
        operationName: params.operationName,
      })) as ExecutionResult;
    } catch (error) {
      result = { errors: [maskError(error, 'Unexpected error.') as never] };
    }
    return processed(result, request, initial);
  };

  /** Yoga's processResult, over the plugins' own hooks, with a response that is only kept. */
  async function processed(result: ExecutionResult, request: HeadersOnly, serverContext: InitialContext): Promise<DirectAnswer> {
    let processor: typeof processRegularResult = processRegularResult;
    let mediaType = 'application/json';
    for (const hook of resultHooks) {
      await hook({
        request: request as never,
        acceptableMediaTypes: [],
        result,
        setResult: (next) => {
          result = next as ExecutionResult;
        },
        resultProcessor: processor as never,
        setResultProcessor: (next, accepted) => {
          processor = next as typeof processRegularResult;
          mediaType = accepted;
        },
        serverContext: serverContext as never,
      });
    }
    const kept = (await processor(result, { Response: KeptResponse } as never, mediaType)) as unknown as KeptResponse;
    return { status: kept.init.status ?? 200, headers: kept.init.headers ?? {}, body: kept.body ?? '' };
  }
}

/**
 * Documents this path validated without an error, with the schema they were validated against. A document's validation
 * is kept as Yoga's own cache keeps it, by document, schema and the names of the rules the plugins add: Yoga already
 * answers every request of a document with the first one's result, whatever its variables (the limits that read
 * variables check them again before execution, guards/limits.ts). Kept here, a read of a known document also skips
 * running every plugin's onValidate hook, which built those rules afresh for each request (a twentieth of a P1
 * GraphQL read's CPU). The one rule a plugin may add for some requests and not others is introspection's (when its
 * `isDisabled` decides per request; Ramp's decides nothing per request), so a document that asks for `__schema` or
 * `__type` is never kept: it is validated every time.
 */
const validatedFor = new WeakMap<DocumentNode, GraphQLSchema>();

function asksForIntrospection(document: DocumentNode): boolean {
  let asks = false;
  visit(document, {
    [Kind.FIELD](field) {
      if (field.name.value === '__schema' || field.name.value === '__type') {
        asks = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return asks;
}

const headerOf = (req: FastifyRequest, name: string): string | null => {
  const value = req.headers[name.toLowerCase()];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
};
