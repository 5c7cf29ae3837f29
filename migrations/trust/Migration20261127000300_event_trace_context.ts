import { Migration } from '@mikro-orm/migrations';

/**
 * Each event keeps the W3C trace context of the request that caused it (`traceparent`, `tracestate`), so the
 * webhook deliveries and subscription pushes it causes continue that trace. Null: no trace (older events,
 * jobs, a request that sent none while spans are off).
 */
export class Migration20261127000300_event_trace_context extends Migration {
  override name = 'Migration20261127000300_event_trace_context';

  override up(): void {
    this.addSql('alter table events add column traceparent text, add column tracestate text');
  }
}
