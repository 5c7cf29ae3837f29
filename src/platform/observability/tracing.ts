import { type Attributes, type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type TextMapGetter, type Tracer, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '../../config.js';

/** The W3C Trace Context headers of a trace, as an event keeps them and a webhook delivery sends them. */
export interface TraceHeaders {
  traceparent: string;
  tracestate?: string;
}

/** Something that may carry the trace it was caused in (an event handed to subscribers). */
export interface Traced {
  trace?: TraceHeaders | null;
}

/**
 * What runs now, and in which trace: the W3C context, and the tracer of the Ramp that serves it (null with
 * export off, when the context only carries a caller's traceparent). The tracer travels with the context, so
 * the SQL driver and the outbox, which no request hands anything, make their spans with the right instance's.
 */
interface TraceScope {
  context: Context;
  tracer: Tracer | null;
}

const current = new AsyncLocalStorage<TraceScope>();
const propagator = new W3CTraceContextPropagator();
const headerGetter: TextMapGetter<Record<string, string | string[] | undefined>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** The active trace context's headers (the innermost span's, or the caller's when no span is made), or null outside a trace. */
export function activeTraceHeaders(): TraceHeaders | null {
  const scope = current.getStore();
  if (!scope) return null;
  const carrier: Record<string, string> = {};
  propagator.inject(scope.context, carrier, {
    set: (c, k, v) => {
      c[k] = v;
    },
  });
  return carrier.traceparent ? { traceparent: carrier.traceparent, ...(carrier.tracestate && { tracestate: carrier.tracestate }) } : null;
}

/**
 * Runs `work` inside a child span of the active trace, ending it with `work`'s outcome. Outside a trace, or with
 * export off, it is `work()` after one lookup: the hot path pays nothing more.
 */
export function inChildSpan<T>(name: string, options: { kind?: SpanKind; attributes?: Attributes }, work: (span: Span | null) => Promise<T>): Promise<T> {
  const scope = current.getStore();
  if (!scope?.tracer) return work(null);
  const span = scope.tracer.startSpan(name, options, scope.context);
  return current.run({ context: trace.setSpan(scope.context, span), tracer: scope.tracer }, () => endWith(span, work(span)));
}

/** Ends `span` when `outcome` settles: an error is recorded, and the span marked failed. */
export async function endWith<T>(span: Span, outcome: Promise<T>): Promise<T> {
  try {
    return await outcome;
  } catch (error) {
    failed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
}

/**
 * One Ramp's tracing: spans through `tracer` when export is on, else none. Either way a trace context a
 * caller sent (W3C `traceparent`, `tracestate`) is carried: into the events a request records and onto the
 * webhook deliveries they cause. Nothing is registered globally: each instance (and each test Ramp) has its own.
 */
export class Tracing {
  constructor(
    /** Null when export is off. */
    readonly tracer: Tracer | null,
    private readonly shutdown: () => Promise<void> = async () => {},
  ) {}

  get enabled(): boolean {
    return this.tracer !== null;
  }

  /** The context continuing these headers (a request's, an event's); the root context when they carry none valid. */
  continuing(headers: Record<string, string | string[] | undefined> | TraceHeaders | null | undefined): Context {
    return headers ? propagator.extract(ROOT_CONTEXT, headers as Record<string, string>, headerGetter) : ROOT_CONTEXT;
  }

  /**
   * Starts a span of this instance under `parent` (null with export off); `run` then runs code inside it.
   * `parent` defaults to the active trace (a request's, when called inside one).
   */
  startSpan(name: string, options: { kind?: SpanKind; attributes?: Attributes }, parent: Context = current.getStore()?.context ?? ROOT_CONTEXT): Span | null {
    return this.tracer?.startSpan(name, options, parent) ?? null;
  }

  /** Runs `work` in the trace `context` (with `span` as its active span, when there is one). */
  run<T>(context: Context, span: Span | null, work: () => T): T {
    return current.run({ context: span ? trace.setSpan(context, span) : context, tracer: this.tracer }, work);
  }

  /** Runs `work` in a span of its own under `parent`: outside any request (a webhook delivery, a subscription push). */
  inSpan<T>(name: string, options: { kind?: SpanKind; attributes?: Attributes }, parent: Context, work: (span: Span | null) => Promise<T>): Promise<T> {
    const span = this.startSpan(name, options, parent);
    return this.run(parent, span, () => (span ? endWith(span, work(span)) : work(null)));
  }

  /** Exports what is buffered and stops. */
  close(): Promise<void> {
    return this.shutdown();
  }
}

export { SpanKind };

/** The active span of this instance's trace, when spans are made (null with export off or outside a trace). */
export function activeSpan(): Span | null {
  const scope = current.getStore();
  return scope?.tracer ? (trace.getSpan(scope.context) ?? null) : null;
}

/**
 * This instance's tracing: spans when OTLP export is configured (or a test hands in an exporter), unless
 * OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none; otherwise none, and the SDK is not even loaded.
 */
export async function openTracing(
  config: Pick<
    Config,
    'OTEL_SDK_DISABLED' | 'OTEL_TRACES_EXPORTER' | 'OTEL_SERVICE_NAME' | 'OTEL_TRACES_SAMPLER' | 'OTEL_TRACES_SAMPLER_ARG' | 'otlpTracesUrl'
  >,
  exporter?: SpanExporter,
): Promise<Tracing> {
  if (config.OTEL_SDK_DISABLED || config.OTEL_TRACES_EXPORTER === 'none' || (!exporter && !config.otlpTracesUrl)) return new Tracing(null);
  const { sdkTracer } = await import('./tracing-sdk.js');
  const sdk = sdkTracer(config, exporter);
  return new Tracing(sdk.tracer, sdk.shutdown);
}

/** True inside a trace whose spans are made: callers skip building a span's name and attributes otherwise. */
export const isTracing = (): boolean => current.getStore()?.tracer != null;
