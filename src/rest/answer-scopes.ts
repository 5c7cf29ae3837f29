import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RouteContract } from './openapi/contract.js';

/**
 * What a REST change answers a key without `read`: the ids of what it changed, as its contract declares
 * (`withoutRead`), never the resource. GraphQL refuses the same selection before running the mutation; REST has no
 * selection to refuse, so the answer is cut to the declared fields as it leaves. The stored idempotent answer stays
 * whole: a replay is cut for the key that asks, whichever of the partner's keys that is.
 */

/** The fields a route keeps for a key without `read`, or null where it answers whole (or declares nothing). */
export const keptWithoutRead = (contract: RouteContract | undefined): readonly string[] | null =>
  Array.isArray(contract?.withoutRead) ? (contract.withoutRead as readonly string[]) : null;

/** Dotted paths by their first field: `['data.id', 'code']` → data → ['id'], code → [''] (the field whole). */
function byHead(paths: readonly string[]): Map<string, string[]> {
  const heads = new Map<string, string[]>();
  for (const path of paths) {
    const dot = path.indexOf('.');
    const [head, rest] = dot < 0 ? [path, ''] : [path.slice(0, dot), path.slice(dot + 1)];
    heads.set(head, [...(heads.get(head) ?? []), rest]);
  }
  return heads;
}

/** The fields `paths` name of an answer, nested as they were; every other field dropped. */
export function keptFields(answer: unknown, paths: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  if (!answer || typeof answer !== 'object') return kept;
  for (const [head, rest] of byHead(paths)) {
    if (!(head in answer)) continue;
    const value = (answer as Record<string, unknown>)[head];
    kept[head] = rest.includes('') ? value : keptFields(value, rest);
  }
  return kept;
}

/** The schema of an answer cut to `paths`; a path the answer's schema does not have stops the start. */
export function keptSchema(schema: z.ZodType, paths: readonly string[], where = 'the answer'): z.ZodType {
  if (!(schema instanceof z.ZodObject)) throw new Error(`${where} is not an object: its fields cannot be kept without read`);
  const shape: Record<string, z.ZodType> = {};
  for (const [head, rest] of byHead(paths)) {
    const field = schema.shape[head] as z.ZodType | undefined;
    if (!field) throw new Error(`${where} has no field ${head} to keep without read`);
    shape[head] = rest.includes('') ? field : keptSchema(field, rest, `${where}.${head}`);
  }
  return z.strictObject(shape);
}

/** An answer's description in the reference, with what a key without `read` gets of it. */
export function describedWithoutRead(description: string, paths: readonly string[]): string {
  const kept = paths.length ? `only ${paths.map((p) => `\`${p}\``).join(', ')}` : 'an empty object';
  return `${description.replace(/\.?$/, '.')} A key without the \`read\` scope gets ${kept}.`;
}

const READS = new Set(['GET', 'HEAD']);

/**
 * Checks, as each route registers, that a change with a key declares what it answers a key without `read` (a path
 * its answer does not have stops the start too), and cuts a successful answer to it for such a key.
 */
export function registerAnswerScopes(app: FastifyInstance, needsKey: (url: string) => boolean) {
  app.addHook('onRoute', (route) => {
    const contract = route.config?.contract;
    const methods = [route.method].flat();
    if (!contract || !needsKey(route.url) || methods.every((method) => READS.has(method))) return;
    const answers = Object.entries(contract.responses).filter(([status, answer]) => Number(status) < 300 && answer.body);
    if (answers.length && contract.withoutRead === undefined)
      throw new Error(`${contract.operationId} changes something but does not declare what it answers a key without read (withoutRead)`);
    const kept = keptWithoutRead(contract);
    for (const [status, answer] of answers) if (kept) keptSchema(answer.body!, kept, `${contract.operationId}'s ${status} answer`);
  });
  app.addHook('preSerialization', async (request, reply, payload) => {
    const kept = keptWithoutRead(request.routeOptions.config?.contract);
    const scopes = request.actor?.scopes;
    if (!kept || !scopes || scopes.has('read') || reply.statusCode >= 300) return payload;
    return keptFields(payload, kept);
  });
}
