import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Config } from '../../config.js';
import type { Tracer } from '@opentelemetry/api';
import { allowListed } from './span-attributes.js';

export type TracingSdkConfig = Pick<Config, 'OTEL_SERVICE_NAME' | 'OTEL_TRACES_SAMPLER' | 'OTEL_TRACES_SAMPLER_ARG' | 'otlpTracesUrl'>;

/** OpenTelemetry's sampler names (OTEL_TRACES_SAMPLER), built from the parsed configuration rather than read from process.env. */
function samplerOf(config: TracingSdkConfig): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG ?? 1);
  switch (config.OTEL_TRACES_SAMPLER) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * The SDK, loaded only when spans are exported (tracing.ts imports this module on demand, so a Ramp with
 * export off never loads it). Spans go out in batches over OTLP/HTTP; an exporter handed in (a test's
 * in-memory one) gets each span as it ends. The provider is this instance's own, never the global one. Either
 * exporter sees only the attributes of the allow list (span-attributes.ts).
 */
export function sdkTracer(config: TracingSdkConfig, exporter?: SpanExporter): { tracer: Tracer; shutdown(): Promise<void> } {
  // Every span leaves through the allow list, whichever exporter sends it.
  const processor = exporter
    ? new SimpleSpanProcessor({ exporter: allowListed(exporter) })
    : new BatchSpanProcessor({ exporter: allowListed(new OTLPTraceExporter({ url: config.otlpTracesUrl! })) });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.OTEL_SERVICE_NAME }),
    sampler: samplerOf(config),
    spanProcessors: [processor],
  });
  return { tracer: provider.getTracer('ramp'), shutdown: () => provider.shutdown() };
}
