import { ForbiddenError } from './errors.js';

/**
 * What an API key may do. `read` every GET and query; `write` customers, accounts, quotes and
 * transfers; `simulate` the sandbox simulations; `webhooks` webhook administration; `admin` keys and
 * the audit log. A key created with no scope has all of them.
 */
export const SCOPES = ['read', 'write', 'simulate', 'webhooks', 'admin'] as const;
export type KeyScope = (typeof SCOPES)[number];

/** Refuses a call the key's scopes do not cover, naming the scope it needed (an Actor's scopes; none: every scope). */
export function requireScope(actor: { readonly scopes?: ReadonlySet<KeyScope> }, scope: KeyScope): void {
  if (actor.scopes && !actor.scopes.has(scope)) {
    throw new ForbiddenError('insufficient_scope', `This API key lacks the \`${scope}\` scope this operation needs`);
  }
}
