/**
 * Every stable reason a request can fail with, and the HTTP status REST answers it with (the partner
 * guide's docs/api/errors.md lists each). The one table of both: DomainError takes only these codes (each error class
 * only the codes of its own status, errors.ts), the REST error mapper (rest/http-errors.ts) and
 * the OpenAPI document (rest/openapi/errors.ts) read the status here, and GraphQL exposes the codes as
 * the `ErrorCode` enum. A new failure cannot ship without a documented code and status.
 */
export const STATUS_OF_CODE = {
  validation_failed: 400,
  malformed_json: 400,
  idempotency_key_missing: 400,
  invalid_cursor: 400,
  unauthenticated: 401,
  sandbox_only: 403,
  rails_not_connected: 403,
  insufficient_scope: 403,
  ip_not_allowed: 403,
  scope_escalation: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  method_not_implemented: 501,
  customer_email_taken: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  throttled: 429,
  internal_error: 500,
  database_unavailable: 503,
  chain_unavailable: 503,
  overloaded: 503,
  kyc_transition_not_allowed: 409,
  kyc_token_already_used: 409,
  kyc_import_customer_is_corporate: 409,
  kyc_provider_not_configured: 403,
  external_account_exists: 409,
  virtual_account_exists: 409,
  virtual_account_already_active: 409,
  amount_out_of_range: 422,
  kyc_not_approved: 422,
  token_not_offered_on_network: 422,
  quote_used: 422,
  quote_expired: 422,
  transfer_expired: 422,
  transfer_transition_not_allowed: 409,
  deposit_transaction_hash_used: 409,
  deposit_transaction_not_found: 422,
  deposit_transaction_failed: 422,
  deposit_wrong_recipient: 422,
  deposit_wrong_token: 422,
  deposit_underpaid: 422,
  not_an_onramp_transfer: 422,
  refund_account_missing: 422,
  network_not_live: 422,
  not_an_offramp_transfer: 422,
  virtual_account_not_active: 422,
  virtual_account_has_no_destination: 422,
  body_too_deep: 400,
  malformed_url: 400,
  malformed_request: 400,
  headers_too_large: 431,
  request_timeout: 408,
  bank_account_already_whitelisted: 409,
  wallet_address_already_whitelisted: 409,
  webhook_disabled: 409,
  webhook_endpoint_limit: 409,
  webhook_url_taken: 409,
  customer_has_transfers_in_flight: 409,
  customer_redacted: 409,
} as const;

export type ErrorCode = keyof typeof STATUS_OF_CODE;

/** The codes, in the table's order. */
export const ERROR_CODES = Object.keys(STATUS_OF_CODE) as readonly ErrorCode[];

/** The codes REST answers with `status`: what an error class of that status may carry. */
export type CodeWithStatus<Status extends number> = { [Code in ErrorCode]: (typeof STATUS_OF_CODE)[Code] extends Status ? Code : never }[ErrorCode];
