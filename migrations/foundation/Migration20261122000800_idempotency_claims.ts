import { Migration } from '@mikro-orm/migrations';

/**
 * Who holds an in-flight key: a request that stalled past the takeover time must not complete or
 * release a claim that another request has taken over since.
 */
export class Migration20261122000800_idempotency_claims extends Migration {
  override name = 'Migration20261122000800_idempotency_claims';

  override up(): void {
    this.addSql('alter table idempotency_keys add column claim_token uuid');
  }
}
