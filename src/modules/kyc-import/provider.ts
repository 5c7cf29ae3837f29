import type { KycStatus } from '../../domain/kyc.js';
import type { CustomerAddress } from '../customers/inputs.js';

/** A person as an external KYC provider verified them. */
export interface KycApplicant {
  firstName: string;
  lastName: string;
  email: string;
  /** `YYYY-MM-DD`. */
  dateOfBirth: string;
  address: CustomerAddress;
  idDocument: {
    type: 'PASSPORT' | 'ID_CARD' | 'DRIVERS' | 'RESIDENCE';
    number: string;
    /** ISO 3166-1 alpha-2, like the customer's address. */
    issuingCountry: string;
  };
}

/** What the provider concluded about the applicant. */
export type KycProviderResult = Extract<KycStatus, 'approved' | 'rejected' | 'in_review'>;

export interface KycShare {
  applicant: KycApplicant;
  result: KycProviderResult;
  /** The provider's own id of the verification, kept for audits. */
  providerReference: string;
}

/**
 * An external KYC provider that shares a verification it already did, through a token the
 * applicant (or the partner) received from it (`providersharedtoken`). Implementations throw
 * `MalformedShareToken` for a token they do not recognise; everything else about a token
 * (used twice, whose customer) is Ramp's business, not the provider's.
 */
export interface KycProvider {
  /** Stable name, stored with every import (`sandbox`, `sumsub`, …). */
  readonly name: string;
  redeem(token: string): Promise<KycShare>;
}

export class MalformedShareToken extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'MalformedShareToken';
  }
}
