import { Migration } from '@mikro-orm/migrations';

/**
 * What each key may do (domain/scopes.ts) and where from (CIDR ranges; empty: anywhere). Keys made
 * before scopes existed could do everything, so they keep every scope.
 */
export class Migration20261127000100_api_key_scopes extends Migration {
  override name = 'Migration20261127000100_api_key_scopes';

  override up(): void {
    this.addSql("alter table api_keys add column scopes text[] not null default '{read,write,simulate,webhooks,admin}'");
    this.addSql("alter table api_keys add column allowed_ips text[] not null default '{}'");
  }
}
