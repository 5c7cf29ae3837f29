import type { FastifyInstance, FastifyRequest } from 'fastify';
import { originOf } from '../platform/http/call-origin.js';
import {
  REFUSALS_AUDITED_ON_READS,
  type AuditCall,
  appendAuditRow,
  auditRowLost,
  finishAuditCall,
  isCapacityAnswer,
  newAuditCall,
  rowOfCall,
} from '../platform/security/audit.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The audited call of a state-changing REST route (platform/security/audit.ts). */
    auditCall: AuditCall | null;
    /** The code the request was refused with, as replyWithProblem answered it. */
    refusalCode: string | null;
  }
}

/** Requests whose answer was audited already (onSend runs again when a hook replaces the payload). */
const audited = new WeakSet<FastifyRequest>();

/** Methods whose calls change state and are audited, succeeded or refused. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface AuditActions {
  /** The action of a state-changing REST operation (its contract's operationId), from the audit module's table. */
  ofOperation(operationId: string, body: unknown): string | undefined;
}

/**
 * Audits REST: a state-changing route's request carries its AuditCall, which `requestScope` hands to the use case
 * (rest/routes.ts), whose unit of work writes the row with the change; when the answer is decided (before it is
 * sent), a refusal (or a success that wrote no row with its change) is appended in a statement of its own. Reads
 * write nothing, except the refusals of REFUSALS_AUDITED_ON_READS.
 */
export function registerAudit(app: FastifyInstance, actions: AuditActions) {
  app.decorateRequest('auditCall', null);
  app.decorateRequest('refusalCode', null);
  app.addHook('onRoute', (route) => {
    const operationId = route.config?.contract?.operationId;
    const handler = route.handler;
    route.handler = function (this: unknown, request, reply) {
      const action = operationId && STATE_CHANGING.has(request.method) ? actions.ofOperation(operationId, request.body) : undefined;
      if (action && request.actor) request.auditCall = newAuditCall(request.actor, action, originOf(request));
      return handler.call(this as never, request, reply);
    };
  });
  // Before the answer leaves (onSend, not onResponse): a client that reads the log once answered finds the row.
  app.addHook('onSend', async (request, reply, payload) => {
    if (audited.has(request)) return payload;
    audited.add(request);
    const refused = reply.statusCode >= 400 ? (request.refusalCode ?? `http_${reply.statusCode}`) : undefined;
    try {
      if (request.auditCall) await finishAuditCall(request.em, request.auditCall, refused);
      else await recordRefusedOutsideCall(request, refused);
    } catch (error) {
      auditRowLost(request.log, error);
    }
    return payload;
  });
  async function recordRefusedOutsideCall(request: FastifyRequest, refused: string | undefined) {
    if (!request.actor || refused === undefined || isCapacityAnswer(refused)) return;
    const operationId = request.routeOptions.config?.contract?.operationId;
    const row = (action: string, code: string) =>
      appendAuditRow(request.em, rowOfCall(newAuditCall(request.actor!, action, originOf(request)), 'refused', code));
    const action = operationId && STATE_CHANGING.has(request.method) ? actions.ofOperation(operationId, request.body) : undefined;
    if (action) return row(action, refused);
    if (operationId && REFUSALS_AUDITED_ON_READS.has(refused)) return row(`read.${operationId}`, refused);
    // The rate limiter's refusal of a read, or of a GraphQL request (refused before its body is read): a key's first
    // of each window (platform/security/rate-limit.ts), so a flood costs the database one row a minute.
    if (request.firstThrottled) return row(operationId ? `read.${operationId}` : 'graphql.request', 'rate_limited');
  }
}
