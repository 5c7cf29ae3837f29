import { type KycStatus, kycPath, kycStatusOf } from '../../domain/kyc.js';
import type { Customer } from './entities.js';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page's buttons and where each leads; each is offered only when the transition table allows it from here. */
export const KYC_PAGE_ACTIONS = {
  submit: { label: 'Submit verification', to: 'in_review' },
  approve: { label: 'Approve', to: 'approved' },
  reject: { label: 'Reject', to: 'rejected' },
} as const satisfies Record<string, { label: string; to: KycStatus }>;
export type KycPageAction = keyof typeof KYC_PAGE_ACTIONS;

/**
 * The sandbox verification page: the customer, its KYC per rail, and what a tester may do next.
 * With `returnTo` (a decided verification whose link has a redirect URI) it sends the browser back
 * to the partner: a meta refresh, since our CSP (`form-action 'self'`) blocks the form's redirect
 * to another origin and the page runs no script; the link is there should the refresh not happen.
 * A page that shows a `notice` (a refused action) stays, so the reason can be read.
 */
export function renderKycPage(customer: Customer, token: string, options: { notice?: string; returnTo?: string | null } = {}): string {
  const { notice, returnTo } = options;
  const status = kycStatusOf(customer.kycStatusBreakdown);
  const name = customer.type === 'corporate' ? (customer.companyName ?? '') : `${customer.firstName ?? ''} ${customer.lastName ?? ''}`;
  const rows = customer.kycStatusBreakdown
    .map((r) => `<tr><td>${escapeHtml(r.currency)}</td><td>${escapeHtml(r.payment_rails)}</td><td>${escapeHtml(r.status)}</td></tr>`)
    .join('');
  const buttons = Object.entries(KYC_PAGE_ACTIONS)
    .filter(([, a]) => kycPath(status, a.to))
    .map(([action, a]) => `<button type="submit" name="action" value="${action}">${a.label}</button>`)
    .join(' ');
  return page(
    'Sandbox KYC verification',
    `<h1>Sandbox KYC verification</h1>
<p class="note">Sandbox only: this page stands in for the KYC provider. Nothing here verifies a real person.</p>
${notice ? `<p class="notice" role="alert">${escapeHtml(notice)}</p>` : ''}
<dl>
  <dt>Customer</dt><dd>${escapeHtml(name.trim())} (${escapeHtml(customer.type)})</dd>
  <dt>Email</dt><dd>${escapeHtml(customer.email)}</dd>
  <dt>KYC status</dt><dd id="kyc-status">${escapeHtml(status)}</dd>
  <dt>Sub status</dt><dd id="kyc-sub-status">${escapeHtml(customer.kycSubStatus ?? '—')}</dd>
</dl>
<table><thead><tr><th>Currency</th><th>Rails</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table>
${
  buttons
    ? `<form method="post" action="/sandbox/kyc/${escapeHtml(customer.id)}">
  <input type="hidden" name="token" value="${escapeHtml(token)}">
  ${buttons}
</form>`
    : '<p>The verification is final: nothing more can be done here.</p>'
}
${returnTo ? `<p><a id="kyc-return" href="${escapeHtml(returnTo)}">Return to ${escapeHtml(new URL(returnTo).host)}</a></p>` : ''}`,
    returnTo && !notice ? `<meta http-equiv="refresh" content="0; url=${escapeHtml(returnTo)}">` : '',
  );
}

/** What an invalid link shows: the same for an unknown customer, a wrong token and a production customer. */
export const renderKycPageNotFound = () => page('Link not valid', '<h1>This verification link is not valid</h1><p>Ask the partner for a new link.</p>');

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${head ? `${head}\n` : ''}<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
.note { background: #fff7d6; padding: .5rem .75rem; border-radius: .25rem; }
.notice { background: #fde2e1; padding: .5rem .75rem; border-radius: .25rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dt { font-weight: 600; }
table { border-collapse: collapse; margin: 1rem 0; }
td, th { border: 1px solid #ccc; padding: .25rem .75rem; text-align: left; }
button { margin-right: .5rem; padding: .5rem 1rem; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
