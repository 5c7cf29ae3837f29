import { Migration } from '@mikro-orm/migrations';

/**
 * The API key that registered each webhook endpoint: its subscription query runs with that key's scopes as they are
 * at each delivery, so a key narrowed or revoked stops reading through it. Endpoints registered before are left
 * without one and run as they did, with every scope.
 */
export class Migration20261128110000_webhook_registering_key extends Migration {
  override name = 'Migration20261128110000_webhook_registering_key';

  override up(): void {
    this.addSql('alter table webhook_endpoints add column api_key_id uuid null');
  }
}
