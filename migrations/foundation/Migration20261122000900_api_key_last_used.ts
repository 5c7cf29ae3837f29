import { Migration } from '@mikro-orm/migrations';

/**
 * When each key last authenticated, so `npm run keys -- list` can tell a key in use from one that
 * can be revoked safely. Written at most once a minute per key, never on every request.
 */
export class Migration20261122000900_api_key_last_used extends Migration {
  override name = 'Migration20261122000900_api_key_last_used';

  override up(): void {
    this.addSql('alter table api_keys add column last_used_at timestamptz');
  }
}
