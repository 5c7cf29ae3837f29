import { Migration } from '@mikro-orm/migrations';

/**
 * Where the sandbox KYC page sends the applicant back once a decision is made: the `redirect_uri`
 * of the customer's newest KYC link (POST /v0/customers/{id}/kycs), null when none was given.
 */
export class Migration20261122001100_kyc_redirect_uri extends Migration {
  override name = 'Migration20261122001100_kyc_redirect_uri';

  override up(): void {
    this.addSql('alter table customers add column kyc_redirect_uri text');
  }
}
