import { Migration20261122000100_foundation } from './foundation/Migration20261122000100_foundation.js';
import { Migration20261122000200_kyc } from './foundation/Migration20261122000200_kyc.js';
import { Migration20261122000300_accounts } from './foundation/Migration20261122000300_accounts.js';
import { Migration20261122000400_partner_whitelists } from './foundation/Migration20261122000400_partner_whitelists.js';
import { Migration20261122000500_transfers } from './foundation/Migration20261122000500_transfers.js';
import { Migration20261122000600_webhooks } from './foundation/Migration20261122000600_webhooks.js';
import { Migration20261122000700_idempotency_json } from './foundation/Migration20261122000700_idempotency_json.js';
import { Migration20261122000800_idempotency_claims } from './foundation/Migration20261122000800_idempotency_claims.js';
import { Migration20261122000900_api_key_last_used } from './foundation/Migration20261122000900_api_key_last_used.js';
import { Migration20261122001100_kyc_redirect_uri } from './foundation/Migration20261122001100_kyc_redirect_uri.js';
import { Migration20261122001300_deposit_received_amount } from './foundation/Migration20261122001300_deposit_received_amount.js';
import { Migration20261124000100_event_subjects } from './foundation/Migration20261124000100_event_subjects.js';
import { Migration20261124050000_webhook_subscription_queries } from './foundation/Migration20261124050000_webhook_subscription_queries.js';
import { Migration20261126000100_chain_rails } from './chain/Migration20261126000100_chain_rails.js';
import { Migration20261126000200_chain_deposits } from './chain/Migration20261126000200_chain_deposits.js';
import { Migration20261126000300_chain_payouts } from './chain/Migration20261126000300_chain_payouts.js';
import { Migration20261126000400_snapshot_subjects } from './foundation/Migration20261126000400_snapshot_subjects.js';
import { Migration20261126000500_chain_sweeps } from './chain/Migration20261126000500_chain_sweeps.js';
import { Migration20261127000300_event_trace_context } from './trust/Migration20261127000300_event_trace_context.js';
import { Migration20261127000500_customer_erasure } from './trust/Migration20261127000500_customer_erasure.js';
import { Migration20261127000600_sealed_bank_numbers } from './trust/Migration20261127000600_sealed_bank_numbers.js';
import { Migration20261127000200_audit_events } from './trust/Migration20261127000200_audit_events.js';
import { Migration20261128100000_audit_chain } from './trust/Migration20261128100000_audit_chain.js';
import { Migration20261128100010_audit_guard } from './trust/Migration20261128100010_audit_guard.js';
import { Migration20261127000100_api_key_scopes } from './trust/Migration20261127000100_api_key_scopes.js';
import { Migration20261128000100_chain_mints } from './chain/Migration20261128000100_chain_mints.js';
import { Migration20261128000400_deposits_add_up } from './chain/Migration20261128000400_deposits_add_up.js';
import { Migration20261128150000_bank_payment_orders } from './bank/Migration20261128150000_bank_payment_orders.js';
import { Migration20261129070000_bank_refund_orders } from './bank/Migration20261129070000_bank_refund_orders.js';
import { Migration20261129060000_bank_entries } from './bank/Migration20261129060000_bank_entries.js';
import { Migration20261128000500_top_up_replacement } from './chain/Migration20261128000500_top_up_replacement.js';
import { Migration20261128110000_webhook_registering_key } from './trust/Migration20261128110000_webhook_registering_key.js';
import { Migration20261128120000_copies_know_their_customer } from './trust/Migration20261128120000_copies_know_their_customer.js';
import { Migration20261129040000_sealed_personal_data } from './trust/Migration20261129040000_sealed_personal_data.js';
import { Migration20261128140000_kyc_swift_rails } from './bank/Migration20261128140000_kyc_swift_rails.js';
import { Migration20261129020000_mints_followed } from './chain/Migration20261129020000_mints_followed.js';
import { Migration20261130010000_virtual_account_numbers } from './bank/Migration20261130010000_virtual_account_numbers.js';
import { Migration20261130010100_bank_order_amounts } from './bank/Migration20261130010100_bank_order_amounts.js';
import { Migration20261130010200_bank_entries_sealed } from './bank/Migration20261130010200_bank_entries_sealed.js';

/** Applied in this order at start; a migration once landed is never edited, only followed. */
export const migrations = [
  Migration20261122000100_foundation,
  Migration20261122000200_kyc,
  Migration20261122000300_accounts,
  Migration20261122000400_partner_whitelists,
  Migration20261122000500_transfers,
  Migration20261122000600_webhooks,
  Migration20261122000700_idempotency_json,
  Migration20261122000800_idempotency_claims,
  Migration20261122000900_api_key_last_used,
  Migration20261122001100_kyc_redirect_uri,
  Migration20261122001300_deposit_received_amount,
  Migration20261124000100_event_subjects,
  Migration20261124050000_webhook_subscription_queries,
  Migration20261126000100_chain_rails,
  Migration20261126000200_chain_deposits,
  Migration20261126000300_chain_payouts,
  Migration20261126000400_snapshot_subjects,
  Migration20261126000500_chain_sweeps,
  Migration20261127000300_event_trace_context,
  Migration20261127000500_customer_erasure,
  Migration20261127000600_sealed_bank_numbers,
  Migration20261127000200_audit_events,
  Migration20261127000100_api_key_scopes,
  Migration20261128000100_chain_mints,
  Migration20261128000400_deposits_add_up,
  Migration20261128000500_top_up_replacement,
  Migration20261128100000_audit_chain,
  Migration20261128100010_audit_guard,
  Migration20261128110000_webhook_registering_key,
  Migration20261128120000_copies_know_their_customer,
  Migration20261128150000_bank_payment_orders,
  Migration20261128140000_kyc_swift_rails,
  Migration20261129020000_mints_followed,
  Migration20261129040000_sealed_personal_data,
  Migration20261129070000_bank_refund_orders,
  Migration20261129060000_bank_entries,
  Migration20261130010000_virtual_account_numbers,
  Migration20261130010100_bank_order_amounts,
  Migration20261130010200_bank_entries_sealed,
];
