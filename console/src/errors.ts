import type { CombinedError } from '@urql/core';
import type { ErrorCode, MutationErrorFragment } from './gql/graphql.js';

/** What to do about a typed error, in the words of the console's buttons; the API's message says what happened. */
const FIXES: Partial<Record<ErrorCode, string>> = {
  KYC_NOT_APPROVED: 'Approve the customer’s KYC first (“Approve KYC” on the customer page), then ask for the quote again.',
  KYC_TRANSITION_NOT_ALLOWED: 'A decided KYC stays decided: create another customer to try the other outcome.',
  CUSTOMER_EMAIL_TAKEN: 'Use another email address, or open the existing customer from the list.',
  QUOTE_EXPIRED: 'Quotes are valid for a short while: get a new quote and create the transfer from it.',
  QUOTE_USED: 'A quote makes one transfer: get a new quote.',
  TRANSFER_TRANSITION_NOT_ALLOWED: 'The transfer is no longer in a status this action applies to: see its status history.',
  TRANSFER_EXPIRED: 'The deposit window passed: create a new quote and transfer.',
  AMOUNT_OUT_OF_RANGE: 'Change the amount: the message says the allowed range.',
  SANDBOX_ONLY: 'Simulations need a sandbox key (rk_sandbox_…): sign out and paste one.',
  RAILS_NOT_CONNECTED: 'Production has no bank rails connected yet: use a sandbox key to try transfers.',
  VIRTUAL_ACCOUNT_NOT_ACTIVE: 'Issue the pending virtual account first (“Issue account”).',
  VIRTUAL_ACCOUNT_ALREADY_ACTIVE: 'The account is already issued: simulate a deposit to it instead.',
  VIRTUAL_ACCOUNT_HAS_NO_DESTINATION: 'Open a virtual account with a destination address to receive deposits.',
  VIRTUAL_ACCOUNT_EXISTS: 'The customer already has an account with these parameters: use it, or pick another currency or network.',
  WEBHOOK_DISABLED: 'Enable the webhook before redelivering to it.',
  WEBHOOK_URL_TAKEN: 'That URL is already registered: it is in the list below.',
  VALIDATION_FAILED: 'Correct the fields listed below and try again.',
  IDEMPOTENCY_KEY_IN_USE: 'The same request is still running: wait a moment and look again.',
};

export interface ShownError {
  message: string;
  code?: string;
  fix?: string;
  fields?: readonly { path: string; message: string }[];
}

/** A typed error member of a <VerbNoun>Result union, as the console shows it. */
export const typedError = (error: MutationErrorFragment): ShownError => ({
  message: error.message,
  code: error.code,
  fix: FIXES[error.code],
  fields: 'fieldErrors' in error ? error.fieldErrors : undefined,
});

/** A transport or request error (no typed result): a refused key is the usual one. */
export function requestError(error: CombinedError): ShownError {
  const status = (error.response as Response | undefined)?.status;
  const unauthenticated = status === 401 || error.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED');
  if (unauthenticated) {
    return { message: 'Ramp refused the API key.', code: 'UNAUTHENTICATED', fix: 'Sign out and paste a current key: a revoked or mistyped key is refused.' };
  }
  if (error.networkError) return { message: 'Ramp did not answer.', fix: 'Check that Ramp is running and reachable, then try again.' };
  return { message: error.graphQLErrors.map((e) => e.message).join('; ') || error.message };
}
