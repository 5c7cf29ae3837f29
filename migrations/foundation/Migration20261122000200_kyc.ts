import { Migration } from '@mikro-orm/migrations';

/** KYC: the sandbox page's link token, used provider share tokens, and business (KYB) profiles. */
export class Migration20261122000200_kyc extends Migration {
  override name = 'Migration20261122000200_kyc';

  override up(): void {
    // Customers created before this migration get a token too; gen_random_uuid is core PostgreSQL (13+) and PGlite.
    this.addSql(`alter table customers add column kyc_page_token text`);
    this.addSql(`update customers set kyc_page_token = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`);
    this.addSql(`alter table customers alter column kyc_page_token set not null`);

    // A share token is redeemed once per partner and environment; only its SHA-256 is kept.
    this.addSql(`create table kyc_imports (
      id uuid primary key,
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      provider text not null,
      token_hash text not null,
      -- Set in the same transaction once the customer exists; the token is claimed first.
      customer_id uuid references customers(id),
      result text not null check (result in ('in_review', 'approved', 'rejected')),
      created_at timestamptz not null,
      constraint kyc_imports_token_unique unique (partner_id, environment, provider, token_hash)
    )`);
    this.addSql(`create index kyc_imports_customer on kyc_imports (customer_id)`);

    this.addSql(`create table business_profiles (
      customer_id uuid primary key references customers(id),
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      company_name text,
      registration_number text,
      country char(3),
      incorporated_on date,
      type text check (type in ('limitedLiabilityCompany', 'soleProprietor', 'corporation', 'partnership', 'publiclyListedCompany', 'trust')),
      email text,
      basic_details_submitted_at timestamptz,
      street text,
      street_en text,
      town text,
      town_en text,
      state text,
      country_name text,
      address_country char(3),
      address_submitted_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint business_profiles_basic_details_whole check (
        (basic_details_submitted_at is null) = (company_name is null)
        and (company_name is null) = (registration_number is null)
        and (company_name is null) = (country is null)
        and (company_name is null) = (incorporated_on is null)
        and (company_name is null) = (type is null)
        and (company_name is null) = (email is null)),
      constraint business_profiles_address_whole check (
        (address_submitted_at is null) = (street is null)
        and (street is null) = (street_en is null)
        and (street is null) = (town is null)
        and (street is null) = (town_en is null)
        and (street is null) = (state is null)
        and (street is null) = (country_name is null)
        and (street is null) = (address_country is null))
    )`);

    this.addSql(`create table business_legal_representatives (
      id uuid primary key,
      customer_id uuid not null references business_profiles(customer_id),
      partner_id uuid not null references partners(id),
      environment text not null check (environment in ('sandbox', 'production')),
      type text not null check (type in ('director')),
      first_name text not null,
      last_name text not null,
      dob date not null,
      nationality char(3) not null,
      document_name text not null check (document_name in ('PASSPORT', 'ID_CARD', 'DRIVERS', 'RESIDENCE')),
      document_no text not null,
      document_expiration_date date not null,
      issue_country char(3) not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint business_legal_representatives_document_unique unique (customer_id, issue_country, document_name, document_no)
    )`);
  }
}
