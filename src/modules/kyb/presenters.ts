import { maskDocumentNumber, missingSections } from '../../domain/kyb.js';
import type { BusinessLegalRepresentative, BusinessProfile } from './entities.js';

/** A corporate customer's KYB as `/v1` (camelCase, like its inputs) and GraphQL show it. */
export interface BusinessProfileView {
  customerId: string;
  userEmail: string;
  basicDetails: {
    companyName: string;
    registrationNumber: string;
    country: string;
    incorporatedOn: string;
    type: string;
    email: string;
  } | null;
  address: { street: string; streetEn: string; town: string; townEn: string; state: string; country: string; countryCode: string } | null;
  legalRepresentatives: Array<{
    id: string;
    legalRepresentationType: string;
    firstName: string;
    lastName: string;
    dob: string;
    nationality: string;
    documentName: string;
    /** Masked: the full number is never shown after submission. */
    documentNo: string;
    documentExpirationDate: string;
    issueCountry: string;
  }>;
  complete: boolean;
  missingSections: string[];
}

export function presentBusinessProfile(
  customer: { id: string; email: string },
  profile: BusinessProfile | null,
  representatives: readonly BusinessLegalRepresentative[],
): BusinessProfileView {
  const basicDetails = profile?.basicDetailsSubmittedAt
    ? {
        companyName: profile.companyName!,
        registrationNumber: profile.registrationNumber!,
        country: profile.country!,
        incorporatedOn: profile.incorporatedOn!,
        type: profile.type!,
        email: profile.email!,
      }
    : null;
  const address = profile?.addressSubmittedAt
    ? {
        street: profile.street!,
        streetEn: profile.streetEn!,
        town: profile.town!,
        townEn: profile.townEn!,
        state: profile.state!,
        country: profile.countryName!,
        countryCode: profile.addressCountry!,
      }
    : null;
  const missing = missingSections({ basicDetails: !!basicDetails, address: !!address, legalRepresentation: representatives.length > 0 });
  return {
    customerId: customer.id,
    userEmail: customer.email,
    basicDetails,
    address,
    legalRepresentatives: representatives.map((r) => ({
      id: r.id,
      legalRepresentationType: r.type,
      firstName: r.firstName,
      lastName: r.lastName,
      dob: r.dob,
      nationality: r.nationality,
      documentName: r.documentName,
      documentNo: maskDocumentNumber(r.documentNo),
      documentExpirationDate: r.documentExpirationDate,
      issueCountry: r.issueCountry,
    })),
    complete: missing.length === 0,
    missingSections: missing,
  };
}
