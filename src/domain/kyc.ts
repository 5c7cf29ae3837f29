import { ConflictError } from './errors.js';
import { FIAT_CURRENCIES, RAILS_OF_CURRENCY } from './money.js';

/** KYC statuses of a customer, kept per currency and rails (Align's model). */
export const KYC_STATUSES = ['not_started', 'pending', 'in_review', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export const KYC_SUB_STATUSES = [
  'kyc_form_submission_pending',
  'kyc_form_submission_started',
  'kyc_form_submitted',
  'kyc_under_review',
  'kyc_approved',
  'kyc_rejected',
] as const;
export type KycSubStatus = (typeof KYC_SUB_STATUSES)[number];

export interface KycRailStatus {
  currency: string;
  payment_rails: string;
  status: KycStatus;
}

/**
 * The currency/rails pairs a customer is verified for, one status each: every rails a currency moves on, so
 * that none the API offers is out of a verified customer's reach. SWIFT asks nothing of a customer that
 * the currency's domestic rails do not (the same identity, checked by the same verification), so one
 * verification decides all of a currency's rails, SWIFT included (usd/swift, eur/swift, aed/swift).
 */
export const KYC_RAILS: ReadonlyArray<Pick<KycRailStatus, 'currency' | 'payment_rails'>> = FIAT_CURRENCIES.flatMap((currency) =>
  RAILS_OF_CURRENCY[currency].map((payment_rails) => ({ currency, payment_rails })),
);

export function kycBreakdown(status: KycStatus): KycRailStatus[] {
  return KYC_RAILS.map((rail) => ({ ...rail, status }));
}

/**
 * What can happen to a verification: the applicant starts the form, submits it, the reviewer
 * (or the provider) approves or rejects it.
 */
export const KYC_STEPS = ['start', 'submit', 'approve', 'reject'] as const;
export type KycStep = (typeof KYC_STEPS)[number];

/**
 * The KYC state machine. Anything not in this table is refused. `approved` is final: nothing
 * here downgrades a verified customer. `rejected` may start again (the applicant resubmits).
 */
export const KYC_TRANSITIONS: Readonly<Record<KycStatus, Readonly<Partial<Record<KycStep, KycStatus>>>>> = {
  not_started: { start: 'pending' },
  pending: { submit: 'in_review' },
  in_review: { approve: 'approved', reject: 'rejected' },
  approved: {},
  rejected: { start: 'pending' },
};

/** The sub status says which step the flow last took. */
export const KYC_SUB_STATUS_AFTER: Readonly<Record<KycStep, KycSubStatus>> = {
  start: 'kyc_form_submission_started',
  submit: 'kyc_form_submitted',
  approve: 'kyc_approved',
  reject: 'kyc_rejected',
};

export type KycDecision = 'approved' | 'rejected';

/**
 * The customer's status. Every step applies to every rail, so the rails agree; if they ever
 * did not, the least advanced one is the customer's status (a transfer checks its own rail).
 */
export function kycStatusOf(breakdown: readonly KycRailStatus[]): KycStatus {
  const rank = (s: KycStatus) => KYC_STATUSES.indexOf(s);
  return breakdown.reduce<KycStatus>((least, r) => (rank(r.status) < rank(least) ? r.status : least), breakdown[0]?.status ?? 'not_started');
}

export const kycTransitionNotAllowed = (from: KycStatus, to: KycStatus) =>
  new ConflictError('kyc_transition_not_allowed', `KYC cannot move from ${from} to ${to}`);

/** A decision ends a run of steps: a shortcut never passes through one on its way elsewhere. */
const DECIDED: ReadonlySet<KycStatus> = new Set(['approved', 'rejected']);

/**
 * The shortest run of steps the table allows from `from` to another status `to`, or null. A
 * sandbox decision on a customer that never submitted walks start → submit → approve, each
 * step legal; no run goes through a decision (in_review → rejected → pending → in_review is
 * not a way to "submit again"), and staying where one is is not a move.
 */
export function kycPath(from: KycStatus, to: KycStatus): KycStep[] | null {
  if (from === to) return null;
  const queue: Array<{ at: KycStatus; steps: KycStep[] }> = [{ at: from, steps: [] }];
  const seen = new Set<KycStatus>([from]);
  while (queue.length) {
    const { at, steps } = queue.shift()!;
    for (const [step, next] of Object.entries(KYC_TRANSITIONS[at]) as Array<[KycStep, KycStatus]>) {
      const path = [...steps, step];
      if (next === to) return path;
      if (!seen.has(next) && !DECIDED.has(next)) {
        seen.add(next);
        queue.push({ at: next, steps: path });
      }
    }
  }
  return null;
}

export interface KycOutcome {
  breakdown: KycRailStatus[];
  subStatus: KycSubStatus;
  steps: KycStep[];
}

/** Moves a verification to `to` through the table, or refuses with 409 `kyc_transition_not_allowed`. */
export function moveKyc(from: KycStatus, to: KycStatus): KycOutcome {
  const steps = kycPath(from, to);
  if (!steps) throw kycTransitionNotAllowed(from, to);
  return { breakdown: kycBreakdown(to), subStatus: KYC_SUB_STATUS_AFTER[steps.at(-1)!], steps };
}

/** One step from the table (e.g. `start` when a partner sends KYC data), or null when it does not apply. */
export function stepKyc(from: KycStatus, step: KycStep): { breakdown: KycRailStatus[]; subStatus: KycSubStatus } | null {
  const to = KYC_TRANSITIONS[from][step];
  return to ? { breakdown: kycBreakdown(to), subStatus: KYC_SUB_STATUS_AFTER[step] } : null;
}

/** Transfers need the customer approved for the rails the money moves on. */
export function isKycApprovedFor(breakdown: readonly KycRailStatus[], currency: string, rails: string): boolean {
  return breakdown.some((r) => r.currency === currency && r.payment_rails === rails && r.status === 'approved');
}
