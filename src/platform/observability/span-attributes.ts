import type { Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/**
 * The span attributes Ramp exports: what ran and how it went (a route template, a statement's shape, an
 * operation's name, an event's type and cursor, a status code), never a value a partner sent or a secret.
 * An attribute not listed here is dropped on export, so a span that someday records more leaks nothing.
 */
export const EXPORTED_SPAN_ATTRIBUTES: ReadonlySet<string> = new Set([
  'http.request.method',
  'http.route',
  'http.response.status_code',
  'server.address',
  'db.system.name',
  'db.query.text',
  'graphql.operation.type',
  'graphql.operation.name',
  'ramp.graphql.root_fields',
  'ramp.event.type',
  'ramp.event.entity_type',
  'ramp.event.cursor',
  'ramp.event.id',
  'ramp.webhook.delivery_id',
  'ramp.webhook.attempt',
]);

/** An exception event keeps its type: its message and stack can quote a statement and its values. */
const EXPORTED_EVENT_ATTRIBUTES: ReadonlySet<string> = new Set(['exception.type']);

const only = (attributes: Attributes, allowed: ReadonlySet<string>): Attributes =>
  Object.fromEntries(Object.entries(attributes).filter(([key]) => allowed.has(key)));

/**
 * The span as it may leave: its allowed attributes, its events' allowed attributes, and its status without a
 * message (an error's message can quote what failed). Everything else, its context and timing, is the span's own.
 */
function exportable(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    attributes: { value: only(span.attributes, EXPORTED_SPAN_ATTRIBUTES) },
    events: { value: span.events.map((event) => ({ ...event, attributes: event.attributes && only(event.attributes, EXPORTED_EVENT_ATTRIBUTES) })) },
    status: { value: { code: span.status.code } },
  }) as ReadableSpan;
}

/** `exporter` fed only exportable spans. */
export function allowListed(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => exporter.export(spans.map(exportable), done),
    shutdown: () => exporter.shutdown(),
    ...(exporter.forceFlush && { forceFlush: () => exporter.forceFlush!() }),
  };
}
