import ipaddr from 'ipaddr.js';
import type { Environment } from '../../domain/environment.js';
import { ValidationError, fieldError } from '../../domain/errors.js';
import { type KycStatus, kycStatusOf } from '../../domain/kyc.js';
import type { Problem } from '../../domain/validation.js';

/**
 * Where a KYC link sends the applicant back (`redirect_uri`): the partner's page, opened by the
 * applicant's browser, never called by Ramp. It must be an absolute https URL (plain http only to
 * this machine — localhost, 127.0.0.0/8, [::1] — and only with a sandbox key, for local
 * development), without credentials or a #fragment, and at most MAX_REDIRECT_URI_LENGTH long.
 */
export const MAX_REDIRECT_URI_LENGTH = 2048;

const invalidUrl = (detail: string): Problem => ({ code: 'invalid_url', detail });
const tooLong: Problem = { code: 'too_big', detail: `must be at most ${MAX_REDIRECT_URI_LENGTH} characters long` };

/** The structural rules, the same in every environment; null when `raw` passes them. */
export function redirectUriProblem(raw: string): Problem | null {
  if (raw.length > MAX_REDIRECT_URI_LENGTH) return tooLong;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return invalidUrl('must be an absolute https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return invalidUrl('must be an absolute https URL');
  if (url.username || url.password) return invalidUrl('must not carry credentials');
  if (url.hash) return invalidUrl('must not have a #fragment');
  // Percent-encoding may lengthen what was sent: what is stored is bounded too.
  if (url.href.length > MAX_REDIRECT_URI_LENGTH) return tooLong;
  return null;
}

const isThisMachine = (url: URL) => {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || (ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback');
};

/**
 * A redirect URI that passed `redirectUriProblem`, checked for the caller's environment and
 * normalised (`URL.href`); a ValidationError at `/redirectUri` otherwise.
 */
export function checkedRedirectUri(raw: string, environment: Environment): string {
  const url = new URL(raw);
  if (url.protocol === 'http:' && !(environment === 'sandbox' && isThisMachine(url))) {
    const detail =
      environment === 'sandbox' ? 'must use https (http only for localhost, 127.0.0.1 or [::1] with a sandbox key)' : 'must use https with a production key';
    throw new ValidationError([fieldError('/redirectUri', 'url_not_https', detail)]);
  }
  return url.href;
}

/** Statuses that end the hosted flow: the page then returns the applicant to the partner. */
const DECIDED: ReadonlySet<KycStatus> = new Set(['approved', 'rejected']);

/**
 * Where the sandbox page sends the applicant once the verification is decided: the link's
 * redirect URI with `customer_id` and `status` set (replacing the partner's own parameters of
 * those names). Null without a redirect URI or before a decision. The parameters are a hint for
 * the partner's page, not proof: anyone can type them, so the partner reads the status from the API.
 */
export function kycReturnUrl(customer: { id: string; kycRedirectUri?: string | null; kycStatusBreakdown: Parameters<typeof kycStatusOf>[0] }): string | null {
  const status = kycStatusOf(customer.kycStatusBreakdown);
  if (!customer.kycRedirectUri || !DECIDED.has(status)) return null;
  const url = new URL(customer.kycRedirectUri);
  url.searchParams.set('customer_id', customer.id);
  url.searchParams.set('status', status);
  return url.href;
}
