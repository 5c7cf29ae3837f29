import { Migration } from '@mikro-orm/migrations';

/**
 * Each event keeps its subject as it was when the event happened (its own columns, secrets left
 * out), so GraphQL's typed `Event.subject` and `TransferUpdate.transfer` show that state, not today's.
 * Events recorded before this have none: they show the subject as it is now.
 */
export class Migration20261124000100_event_subjects extends Migration {
  override name = 'Migration20261124000100_event_subjects';

  override up(): void {
    this.addSql('alter table events add column subject jsonb');
  }
}
