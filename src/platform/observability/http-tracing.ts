import type { Context, Span } from '@opentelemetry/api';
import { SpanStatusCode } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SpanKind, type Tracing } from './tracing.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The trace this request continues or starts; null when it carries none and no span is made. */
    traceContext: Context | null;
    /** The request's own span, when spans are made. */
    traceSpan: Span | null;
  }
}

function endRequestSpan(request: FastifyRequest, status: number | null) {
  const span = request.traceSpan;
  if (!span) return;
  request.traceSpan = null;
  if (status !== null) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
  if (status === null || status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * A request continues the caller's W3C trace (`traceparent`, `tracestate`) or, with spans on, starts one, and
 * everything it runs (authentication, the route or the GraphQL operation, its SQL, the events it records) runs
 * inside it. With export off and no `traceparent`, the hooks cost one header read. Registered first, so the
 * rate limiter's and authentication's statements are in the trace too.
 */
export function registerTracing(app: FastifyInstance, tracing: Tracing): void {
  app.decorateRequest('traceContext', null);
  app.decorateRequest('traceSpan', null);
  app.addHook('onRequest', (request, _reply, done) => {
    const incoming = request.headers.traceparent;
    if (incoming === undefined && !tracing.enabled) return done();
    const parent = tracing.continuing(incoming === undefined ? null : request.headers);
    const route = request.routeOptions.url;
    request.traceContext = parent;
    request.traceSpan = tracing.startSpan(
      route ? `${request.method} ${route}` : request.method,
      // The route's template, never the path: a path carries ids and, for the sandbox KYC page, a customer's link.
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method, ...(route && { [ATTR_HTTP_ROUTE]: route }) } },
      parent,
    );
    tracing.run(parent, request.traceSpan, done);
  });
  // Reading the body leaves the hooks' async context: the handler is put back in the request's trace.
  app.addHook('preHandler', (request, _reply, done) => (request.traceContext ? tracing.run(request.traceContext, request.traceSpan, done) : done()));
  if (!tracing.enabled) return;
  app.addHook('onResponse', (request, reply, done) => {
    endRequestSpan(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    endRequestSpan(request, null);
    done();
  });
}
