import { Migration } from '@mikro-orm/migrations';

/**
 * Stored responses as `json`, not `jsonb`: jsonb reorders object keys, and a replay must be the
 * first response byte for byte, not just the same content.
 */
export class Migration20261122000700_idempotency_json extends Migration {
  override name = 'Migration20261122000700_idempotency_json';

  override up(): void {
    this.addSql('alter table idempotency_keys alter column response_body type json using response_body::json');
  }
}
