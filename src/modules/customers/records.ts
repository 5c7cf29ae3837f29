import { postalAddressOf } from '../../domain/address.js';
import { isSealed } from '../../platform/security/sealing.js';
import type { CustomerChanges } from './inputs.js';

/**
 * How a customer's KYC data is stored: the `profile` jsonb keeps the shape PUT /v0/customers
 * carried before the domain had its own inputs (snake_case, as the spec writes it), so stored
 * rows need no migration. This file is the one place that knows that shape.
 */
export interface StoredProfile {
  /** Rows written before share tokens were imported on update; a token is no longer kept (kyc_imports has its hash). */
  external_kyc_provider_data?: { provider_share_kyc_token: string };
  identifying_information?: {
    id_document?: { number: string; issuing_country: string };
    tax_number?: string;
  };
  documents?: { file_id: string; purpose: string; description?: string }[];
}

/** The address as stored and shown (the spec's spelling). */
export const storedAddressOf = postalAddressOf;

/** The stored profile with `changes`' KYC data merged in; a change names only what it sets. */
export function mergedProfile(stored: StoredProfile, changes: CustomerChanges): StoredProfile {
  const profile = { ...stored };
  if (changes.idDocument !== undefined || changes.taxNumber !== undefined) {
    // As before: identifying information sent is stored as sent, replacing what was there.
    profile.identifying_information = {
      ...(changes.idDocument && { id_document: { number: changes.idDocument.number, issuing_country: changes.idDocument.issuingCountry } }),
      ...(changes.taxNumber !== undefined && { tax_number: changes.taxNumber }),
    };
  }
  if (changes.documents !== undefined) {
    profile.documents = changes.documents.map((d) => ({
      file_id: d.fileId,
      purpose: d.purpose,
      ...(d.description !== undefined && { description: d.description }),
    }));
  }
  return profile;
}

/** The identity document a KYC provider verified replaces the stored one; a stored tax number stays. */
export function withVerifiedDocument(stored: StoredProfile, document: { number: string; issuingCountry: string }): StoredProfile {
  return {
    ...stored,
    identifying_information: { ...stored.identifying_information, id_document: { number: document.number, issuing_country: document.issuingCountry } },
  };
}

/** Whether `changes` carry KYC data, which starts a verification (or a resubmission). */
export const submitsKyc = (changes: CustomerChanges) =>
  changes.providerShareKycToken !== undefined || changes.idDocument !== undefined || changes.taxNumber !== undefined || changes.documents !== undefined;

/**
 * The profile with its document and tax numbers passed through `seal` (the customer's data key, at rest);
 * a value already sealed (it starts `v1:`) is kept as it is.
 */
export async function sealedNumbersOf(stored: StoredProfile, seal: (clear: string) => Promise<string>): Promise<StoredProfile> {
  const identity = stored.identifying_information;
  if (!identity) return stored;
  const sealed = async (value: string) => (isSealed(value) ? value : seal(value));
  return {
    ...stored,
    identifying_information: {
      ...(identity.id_document && { id_document: { ...identity.id_document, number: await sealed(identity.id_document.number) } }),
      ...(identity.tax_number !== undefined && { tax_number: await sealed(identity.tax_number) }),
    },
  };
}
