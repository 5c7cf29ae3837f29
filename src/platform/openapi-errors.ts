import type { ErrorCode } from '../domain/error-codes.js';
import type { RouteContract } from './openapi-contract.js';

/** The status each code is answered with (README "Error codes"); `bad_request` is Fastify's own generic 4xx. */
export const STATUS_OF_CODE: Record<ErrorCode | 'bad_request', number> = {
  validation_failed: 400,
  malformed_json: 400,
  idempotency_key_missing: 400,
  invalid_cursor: 400,
  body_too_deep: 400,
  malformed_url: 400,
  malformed_request: 400,
  bad_request: 400,
  virtual_account_already_active: 400,
  unauthenticated: 401,
  sandbox_only: 403,
  rails_not_connected: 403,
  kyc_provider_not_configured: 403,
  not_found: 404,
  route_not_found: 404,
  request_timeout: 408,
  customer_email_taken: 409,
  idempotency_key_in_use: 409,
  kyc_transition_not_allowed: 409,
  kyc_token_already_used: 409,
  kyc_import_customer_is_corporate: 409,
  external_account_exists: 409,
  virtual_account_exists: 409,
  transfer_transition_not_allowed: 409,
  deposit_transaction_hash_used: 409,
  bank_account_already_whitelisted: 409,
  wallet_address_already_whitelisted: 409,
  webhook_disabled: 409,
  webhook_endpoint_limit: 409,
  webhook_url_taken: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  amount_out_of_range: 422,
  kyc_not_approved: 422,
  quote_used: 422,
  quote_expired: 422,
  transfer_expired: 422,
  not_an_onramp_transfer: 422,
  virtual_account_not_active: 422,
  virtual_account_has_no_destination: 422,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  database_unavailable: 503,
};

export type AnsweredCode = keyof typeof STATUS_OF_CODE;

/**
 * Every code a route can answer: its own, and those every route gives — a bad URL or query, a bad
 * key, a rate limit, an outage, and the body's parsing (Fastify reads a body sent to any route, even
 * one that takes none); the idempotency store's; an id that matches nothing.
 */
export function codesOf(contract: RouteContract, { hasParams }: { hasParams: boolean }): AnsweredCode[] {
  const codes = new Set<AnsweredCode>([
    'malformed_url',
    'validation_failed',
    'malformed_json',
    'body_too_deep',
    'bad_request',
    'payload_too_large',
    'unsupported_media_type',
    'rate_limited',
    'internal_error',
    'database_unavailable',
    ...(contract.errors ?? []),
  ]);
  if (!contract.public) codes.add('unauthenticated');
  if (hasParams) codes.add('not_found');
  if (contract.idempotencyKey) {
    codes.add('idempotency_key_in_use');
    codes.add('idempotency_key_reused');
    if (contract.idempotencyKey === 'required') codes.add('idempotency_key_missing');
  }
  if (contract.sandboxOnly) codes.add('sandbox_only');
  return [...codes];
}
