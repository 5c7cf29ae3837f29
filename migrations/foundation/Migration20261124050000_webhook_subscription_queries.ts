import { Migration } from '@mikro-orm/migrations';

/**
 * A webhook may be defined by a GraphQL subscription query over `events`: its deliveries' body is
 * that query's result. `subscription_types` is the query's `types` argument, kept apart so the
 * dispatcher's fan-out filters on it in SQL (null: every type).
 */
export class Migration20261124050000_webhook_subscription_queries extends Migration {
  override name = 'Migration20261124050000_webhook_subscription_queries';

  override up(): void {
    this.addSql(`alter table webhook_endpoints
      add column subscription_query text check (length(subscription_query) <= 10000),
      add column subscription_types text[],
      add check (subscription_types is null or subscription_query is not null)`);
  }
}
