import { Migration } from '@mikro-orm/migrations';

/**
 * Every copy of a customer's personal data names its customer, so erasure rewrites exactly that customer's copies
 * and no one else's: an event (its payload and kept subject) carries `customer_id`, and so does a stored idempotent
 * answer. A webhook delivery and its attempts (the receiver's answers) reach it through their event.
 *
 * Backfilled from what the rows already say: a customer's own events by their entity, the events of transfers,
 * bank and virtual accounts through the entity's row, a stored answer by the `customer_id` it holds (the partner
 * API's answers, and the Encryptus envelope's `data`). What cannot be derived stays null: such a copy names no
 * customer, and erasure leaves it alone.
 */
export class Migration20261128120000_copies_know_their_customer extends Migration {
  override name = 'Migration20261128120000_copies_know_their_customer';

  override up(): void {
    this.addSql('alter table events add column customer_id uuid');
    this.addSql(`update events set customer_id = entity_id where entity_type = 'customer'`);
    this.addSql(`update events e set customer_id = t.customer_id from transfers t
      where e.entity_type in ('onramp_transfer', 'offramp_transfer') and e.entity_id = t.id`);
    this.addSql(`update events e set customer_id = a.customer_id from external_accounts a where e.entity_type = 'external_account' and e.entity_id = a.id`);
    this.addSql(`update events e set customer_id = v.customer_id from virtual_accounts v where e.entity_type = 'virtual_account' and e.entity_id = v.id`);
    this.addSql('create index events_customer on events (customer_id) where customer_id is not null');

    this.addSql('alter table idempotency_keys add column customer_id uuid');
    this.addSql(`update idempotency_keys k set customer_id = c.id from customers c
      where c.partner_id = k.partner_id and c.environment = k.environment and k.response_body is not null
        and c.id::text in (k.response_body ->> 'customer_id', k.response_body -> 'data' ->> 'customer_id', k.response_body -> 'data' ->> 'customerId')`);
    this.addSql('create index idempotency_keys_customer on idempotency_keys (customer_id) where customer_id is not null');
  }
}
