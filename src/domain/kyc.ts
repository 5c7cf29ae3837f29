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

/** The currency/rails pairs a customer is verified for, one status each. */
export const KYC_RAILS: ReadonlyArray<Pick<KycRailStatus, 'currency' | 'payment_rails'>> = [
  { currency: 'usd', payment_rails: 'ach' },
  { currency: 'usd', payment_rails: 'wire' },
  { currency: 'usd', payment_rails: 'swift' },
  { currency: 'eur', payment_rails: 'sepa' },
  { currency: 'aed', payment_rails: 'uaefts' },
];

export function kycBreakdown(status: KycStatus): KycRailStatus[] {
  return KYC_RAILS.map((rail) => ({ ...rail, status }));
}

export type KycDecision = 'approved' | 'rejected';

/** A decision applies to every rail; the sub status says where the flow ended. */
export function decideKyc(decision: KycDecision): { breakdown: KycRailStatus[]; subStatus: KycSubStatus } {
  return decision === 'approved'
    ? { breakdown: kycBreakdown('approved'), subStatus: 'kyc_approved' }
    : { breakdown: kycBreakdown('rejected'), subStatus: 'kyc_rejected' };
}

/** Transfers need the customer approved for the rails the money moves on. */
export function isKycApprovedFor(breakdown: readonly KycRailStatus[], currency: string, rails: string): boolean {
  return breakdown.some((r) => r.currency === currency && r.payment_rails === rails && r.status === 'approved');
}
