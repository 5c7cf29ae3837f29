import { createHash } from 'node:crypto';
import { type KycApplicant, type KycProvider, type KycProviderResult, type KycShare, MalformedShareToken } from './provider.js';

/**
 * Sandbox share tokens: `<outcome>_<applicant>`, e.g. `approve_alice-01`, `reject_alice-01`,
 * `review_bob-2024`. The outcome is the provider's result; the applicant part (6-64 letters,
 * digits or dashes, case-insensitive) names one deterministic person, so `approve_x` and
 * `reject_x` are the same applicant with two results. The applicant's email is
 * `<applicant>@sandbox-kyc.example.com`, which lets a tester import onto an existing customer.
 */
export const SANDBOX_TOKEN = /^(approve|reject|review)_([A-Za-z0-9][A-Za-z0-9-]{5,63})$/;
export const SANDBOX_APPLICANT_EMAIL_DOMAIN = 'sandbox-kyc.example.com';
/** A token the sandbox takes, for the contract's example. */
export const SANDBOX_EXAMPLE_TOKEN = 'approve_ada-lovelace';

const OUTCOMES: Record<string, KycProviderResult> = { approve: 'approved', reject: 'rejected', review: 'in_review' };

const FIRST_NAMES = ['Amara', 'Bruno', 'Chen', 'Dalia', 'Elias', 'Fatima', 'Goran', 'Hana', 'Ivan', 'Jamila', 'Kofi', 'Lena'];
const LAST_NAMES = ['Okafor', 'Silva', 'Wang', 'Haddad', 'Novak', 'Rahman', 'Petrov', 'Sato', 'Keller', 'Mensah', 'Larsen', 'Costa'];
const ADDRESSES: ReadonlyArray<KycApplicant['address']> = [
  { country: 'DE', city: 'Berlin', street_line_1: 'Friedrichstraße 43', postal_code: '10117' },
  { country: 'FR', city: 'Paris', street_line_1: '12 Rue de Rivoli', postal_code: '75004' },
  { country: 'AE', city: 'Dubai', street_line_1: 'Sheikh Zayed Road 1', postal_code: '00000', state: 'Dubai' },
  { country: 'US', city: 'Austin', street_line_1: '500 Congress Ave', postal_code: '78701', state: 'TX' },
  { country: 'GB', city: 'London', street_line_1: '221B Baker Street', postal_code: 'NW1 6XE' },
];
const DOCUMENTS: ReadonlyArray<KycApplicant['idDocument']['type']> = ['PASSPORT', 'ID_CARD', 'DRIVERS', 'RESIDENCE'];

/** The same applicant part always gives the same person. */
export function sandboxApplicant(applicant: string): KycApplicant {
  const seed = applicant.toLowerCase();
  const hash = createHash('sha256').update(seed).digest();
  const pick = <T>(list: readonly T[], byte: number) => list[hash[byte]! % list.length]!;
  const address = pick(ADDRESSES, 2);
  const year = 1950 + (hash[4]! % 50);
  const month = 1 + (hash[5]! % 12);
  const day = 1 + (hash[6]! % 28);
  return {
    firstName: pick(FIRST_NAMES, 0),
    lastName: pick(LAST_NAMES, 1),
    email: `${seed}@${SANDBOX_APPLICANT_EMAIL_DOMAIN}`,
    dateOfBirth: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    address,
    idDocument: {
      type: pick(DOCUMENTS, 3),
      number: `X${hash.readUInt32BE(8).toString().padStart(10, '0')}`,
      issuingCountry: address.country,
    },
  };
}

/** Turns a sandbox share token into a deterministic verification, without any network call. */
export const sandboxKycProvider: KycProvider = {
  name: 'sandbox',
  async redeem(token: string): Promise<KycShare> {
    const match = SANDBOX_TOKEN.exec(token);
    if (!match) throw new MalformedShareToken('is not a sandbox share token: expected approve_<applicant>, reject_<applicant> or review_<applicant>');
    return {
      applicant: sandboxApplicant(match[2]!),
      result: OUTCOMES[match[1]!]!,
      providerReference: `sbx_${createHash('sha256').update(token).digest('hex').slice(0, 16)}`,
    };
  },
};
