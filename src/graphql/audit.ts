import { errorTypeMap } from '@pothos/plugin-errors';
import { defaultFieldResolver, type GraphQLField, type GraphQLSchema } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import {
  REFUSALS_AUDITED_ON_READS,
  REQUEST_SHAPE_REFUSALS,
  type AuditCall,
  type CallOrigin,
  appendAuditRow,
  auditRowLost,
  finishAuditCall,
  newAuditCall,
  rowOfCall,
} from '../platform/security/audit.js';
import type { Actor } from '../domain/environment.js';
import type { GraphQLContext } from './context.js';
import type { ScopeRefusal } from './guards/scopes.js';

/** The audit log's names of the mutations (the audit module's table, handed in by app.ts). */
export interface MutationActions {
  ofMutation(field: string): string | undefined;
}

/** A failure's stable code; what has none is Ramp's own failure. */
const codeOf = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'internal_error';
};

/** A typed error result: Pothos's errors plugin answers the failure as a proxy of the error it caught. */
const isErrorResult = (result: unknown) => result instanceof Error || (typeof result === 'object' && result !== null && errorTypeMap.has(result));

type Field = GraphQLField<unknown, GraphQLContext>;
const audited = new WeakSet<GraphQLSchema>();

/** Where the request came from, as its context was told (HTTP: the request; graphql-ws: the upgrade request). */
export const originOf = (ctx: Pick<GraphQLContext, 'origin' | 'requestId'>): CallOrigin =>
  ctx.origin ?? { ip: null, userAgent: null, requestId: ctx.requestId };

/** After the field answered: a lost row is logged, and never turns an answer into a failure (the change is made or not). */
const finish = (ctx: GraphQLContext, call: AuditCall, refusedWith?: string) =>
  finishAuditCall(ctx.requestEm.get(), call, refusedWith).catch((error) => auditRowLost(ctx.log, error));

/**
 * Each mutation field runs as an audited call (platform/security/audit.ts), on its context while it runs (`scopeOf` hands it
 * to the use case, whose unit of work appends its row in the transaction of its change); a typed error result or a
 * thrown failure is recorded as refused with its code, after the field answered. Query fields write nothing, unless
 * refused with a code audited on reads.
 */
function auditMutation(field: Field, action: string) {
  const resolve = field.resolve ?? defaultFieldResolver;
  field.resolve = async (parent, args, ctx, info) => {
    if (!ctx.actor) return resolve(parent, args, ctx, info);
    const call = newAuditCall(ctx.actor, action, originOf(ctx));
    let result: unknown;
    // Mutation fields run serially: the context carries this field's call alone until it answered.
    ctx.auditCall = call;
    try {
      result = await resolve(parent, args, ctx, info);
    } catch (error) {
      ctx.auditCall = undefined;
      await finish(ctx, call, codeOf(error));
      throw error;
    }
    ctx.auditCall = undefined;
    await finish(ctx, call, isErrorResult(result) ? codeOf(result) : undefined);
    return result;
  };
}

/** A read refused with a code audited on reads: a row of its own, `read.<field>`. */
async function auditReadRefusal(ctx: GraphQLContext, field: string, error: unknown) {
  const code = codeOf(error);
  if (!ctx.actor || !REFUSALS_AUDITED_ON_READS.has(code)) return;
  const call = newAuditCall(ctx.actor, `read.${field}`, originOf(ctx));
  await appendAuditRow(ctx.requestEm.get(), rowOfCall(call, 'refused', code)).catch((lost) => auditRowLost(ctx.log, lost));
}

/**
 * A query field's refusal, thrown or returned: a field may answer with an Error rather than throw it (the relay
 * plugin's node(id:) hands back its loader's failure), which GraphQL then reports as the field's error.
 */
function auditRefusedRead(field: Field) {
  const resolve = field.resolve ?? defaultFieldResolver;
  field.resolve = async (parent, args, ctx, info) => {
    let result: unknown;
    try {
      result = await resolve(parent, args, ctx, info);
    } catch (error) {
      await auditReadRefusal(ctx, field.name, error);
      throw error;
    }
    const refused = result instanceof Error ? result : Array.isArray(result) ? result.find((item) => item instanceof Error) : undefined;
    if (refused) await auditReadRefusal(ctx, field.name, refused);
    return result;
  };
}

/** What a refusal before execution is audited with: the request's own context, or a graphql-ws subscription's. */
export type RefusalContext = Pick<GraphQLContext, 'requestEm' | 'log' | 'requestId' | 'origin'> & { actor?: Actor | null };

/**
 * The audit of an operation refused before it ran (a root field outside the key's scopes): a mutation under the
 * action its table names, as if it had run and been refused; a query or subscription field as `read.<field>`, as a
 * refused query field is, from where the context says the request came.
 */
export function scopeRefusalAudit(actions: MutationActions) {
  return async (ctx: RefusalContext, refusal: ScopeRefusal): Promise<void> => {
    if (!ctx.actor) return;
    const action = refusal.type === 'Mutation' ? (actions.ofMutation(refusal.field) ?? `graphql.${refusal.field}`) : `read.${refusal.field}`;
    const call = newAuditCall(ctx.actor, action, originOf(ctx));
    await appendAuditRow(ctx.requestEm.get(), rowOfCall(call, 'refused', refusal.error.code)).catch((lost) => auditRowLost(ctx.log, lost));
  };
}

/** An error of an answer: one with a `path` is a field's, audited as that field's refusal (above), not the request's. */
type AnswerError = { extensions?: Record<string, unknown>; path?: readonly unknown[] };

/**
 * The request-shape refusal (platform/security/audit.ts) an answer's request errors name, in the audit log's spelling: a limit's
 * or a trusted document's code rather than graphql's generic validation failure when the answer has both.
 */
export function requestRefusalOf(errors: readonly AnswerError[] | undefined): string | undefined {
  const codes = (errors ?? [])
    .filter((error) => !error.path?.length)
    .map((error) => String(error.extensions?.code ?? '').toLowerCase())
    .filter((code) => REQUEST_SHAPE_REFUSALS.has(code));
  return codes.find((code) => code !== GENERIC_REFUSAL) ?? codes[0];
}

const GENERIC_REFUSAL = 'graphql_validation_failed';

/**
 * A GraphQL request refused for its shape before it ran (not a trusted document, over a limit, a document that does
 * not validate, the wrong transport): `graphql.request`, refused with its code, from where the context says it came.
 * A refusal of no key (none, or a wrong one) is not recorded, as on every face.
 */
export async function auditRequestRefusal(ctx: RefusalContext, errors: readonly AnswerError[]): Promise<void> {
  const code = requestRefusalOf(errors);
  if (!ctx.actor || !code) return;
  const call = newAuditCall(ctx.actor, 'graphql.request', originOf(ctx));
  await appendAuditRow(ctx.requestEm.get(), rowOfCall(call, 'refused', code)).catch((lost) => auditRowLost(ctx.log, lost));
}

/**
 * Audits, over HTTP, an answer refused for its shape: one with errors and no data. Many such refusals come before
 * Yoga builds the request's context (a document refused by hash, parsing or validation), so `callerOf` resolves the key
 * from the HTTP request itself; it runs only for a refusal.
 */
export function useRequestRefusalAudit<S extends Record<string, unknown>>(callerOf: (server: S) => Promise<RefusalContext | null>): Plugin<S> {
  return {
    async onResultProcess({ result, serverContext }) {
      if (isAsyncIterable(result) || Array.isArray(result) || result.data != null || !requestRefusalOf(result.errors)) return;
      const ctx = await callerOf(serverContext as unknown as S);
      if (ctx) await auditRequestRefusal(ctx, result.errors ?? []);
    },
  };
}

/** Wraps the schema's root fields once (the schema is built once per process; Ramps started in it share it). */
export function auditSchema(schema: GraphQLSchema, actions: MutationActions): GraphQLSchema {
  if (audited.has(schema)) return schema;
  audited.add(schema);
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const action = actions.ofMutation(field.name);
    if (action) auditMutation(field as Field, action);
  }
  for (const field of Object.values(schema.getQueryType()?.getFields() ?? {})) auditRefusedRead(field as Field);
  return schema;
}
