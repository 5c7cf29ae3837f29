import { Migration } from '@mikro-orm/migrations';

/**
 * Every rails a transfer may use has its line in a customer's KYC breakdown: EUR and AED over SWIFT had none, so no
 * customer could ever be quoted on them. SWIFT needs the same verification as the currency's domestic rails, so each
 * customer's new eur/swift and aed/swift lines take the status of its eur/sepa and aed/uaefts lines; the breakdown is
 * rewritten in the order new customers get (domain/kyc.ts, KYC_RAILS).
 */
export const KYC_SWIFT_RAILS = `update customers c set kyc_status_breakdown = (
      select jsonb_agg(jsonb_build_object('currency', k.currency, 'payment_rails', k.rails, 'status', coalesce(own.status, domestic.status)) order by k.position)
      from (values (1, 'usd', 'ach', 'ach'), (2, 'usd', 'wire', 'wire'), (3, 'usd', 'swift', 'swift'), (4, 'eur', 'sepa', 'sepa'),
                   (5, 'eur', 'swift', 'sepa'), (6, 'aed', 'uaefts', 'uaefts'), (7, 'aed', 'swift', 'uaefts'))
           as k(position, currency, rails, domestic_rails)
      left join lateral (select e->>'status' as status from jsonb_array_elements(c.kyc_status_breakdown) e
                         where e->>'currency' = k.currency and e->>'payment_rails' = k.rails limit 1) own on true
      left join lateral (select e->>'status' as status from jsonb_array_elements(c.kyc_status_breakdown) e
                         where e->>'currency' = k.currency and e->>'payment_rails' = k.domestic_rails limit 1) domestic on true
      where coalesce(own.status, domestic.status) is not null)
    where not (c.kyc_status_breakdown @> '[{"currency": "eur", "payment_rails": "swift"}]'::jsonb
               and c.kyc_status_breakdown @> '[{"currency": "aed", "payment_rails": "swift"}]'::jsonb)`;

export class Migration20261128140000_kyc_swift_rails extends Migration {
  override name = 'Migration20261128140000_kyc_swift_rails';

  override up(): void {
    this.addSql(KYC_SWIFT_RAILS);
  }
}
