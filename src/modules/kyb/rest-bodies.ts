import { z } from 'zod';
import { named, uuidAnswer } from '../../rest/openapi/schemas.js';
import {
  type BusinessAddress,
  type BusinessBasicDetails,
  type LegalRepresentative,
  basicDetailsFields as basic,
  businessAddressFields as address,
  legalRepresentativeFields as representative,
} from './inputs.js';

/**
 * The REST KYB bodies (camelCase), with the domain's field rules, and their mapping to the
 * use cases' inputs. Domain pointers come back through KYB_POINTERS.
 */

/** The body's names are the domain's: each domain pointer keeps its spelling (withRestPointers would snake-case it). */
export const KYB_POINTERS = Object.fromEntries(
  [...Object.keys(basic), ...Object.keys(address), ...Object.keys(representative)].map((field) => [`/${field}`, `/${field}`]),
);

export const BasicDetailsBody = z.strictObject({
  userEmail: basic.userEmail,
  companyName: basic.companyName,
  registrationNumber: basic.registrationNumber,
  country: basic.country,
  incorporatedOn: basic.incorporatedOn,
  type: basic.type,
  email: basic.email,
});

export const AddressBody = z.strictObject({
  userEmail: address.userEmail,
  street: address.street,
  streetEn: address.streetEn,
  town: address.town,
  townEn: address.townEn,
  state: address.state,
  country: address.country,
});

export const LegalRepresentativeBody = z.strictObject({
  userEmail: representative.userEmail,
  legalRepresentationType: representative.legalRepresentationType,
  firstName: representative.firstName,
  lastName: representative.lastName,
  dob: representative.dob,
  nationality: representative.nationality,
  documentNo: representative.documentNo,
  documentExpirationDate: representative.documentExpirationDate,
  issueCountry: representative.issueCountry,
  documentName: representative.documentName,
});

export const basicDetailsOf = (b: z.infer<typeof BasicDetailsBody>): BusinessBasicDetails => ({
  userEmail: b.userEmail,
  companyName: b.companyName,
  registrationNumber: b.registrationNumber,
  country: b.country,
  incorporatedOn: b.incorporatedOn,
  type: b.type,
  email: b.email,
});

export const addressOf = (b: z.infer<typeof AddressBody>): BusinessAddress => ({
  userEmail: b.userEmail,
  street: b.street,
  streetEn: b.streetEn,
  town: b.town,
  townEn: b.townEn,
  state: b.state,
  country: b.country,
});

export const legalRepresentativeOf = (b: z.infer<typeof LegalRepresentativeBody>): LegalRepresentative => ({
  userEmail: b.userEmail,
  legalRepresentationType: b.legalRepresentationType,
  firstName: b.firstName,
  lastName: b.lastName,
  dob: b.dob,
  nationality: b.nationality,
  documentNo: b.documentNo,
  documentExpirationDate: b.documentExpirationDate,
  issueCountry: b.issueCountry,
  documentName: b.documentName,
});

// ——— Answers (the OpenAPI document's response schemas; presenters.ts builds them) ———

/** A corporate customer's KYB so far (camelCase, as /v1 writes it); document numbers masked. */
export const BusinessProfileAnswer = named(
  'BusinessProfile',
  z.strictObject({
    customerId: uuidAnswer(),
    userEmail: z.string(),
    basicDetails: z
      .strictObject({
        companyName: z.string(),
        registrationNumber: z.string(),
        country: z.string(),
        incorporatedOn: z.string(),
        type: z.string(),
        email: z.string(),
      })
      .nullable(),
    address: z
      .strictObject({
        street: z.string(),
        streetEn: z.string(),
        town: z.string(),
        townEn: z.string(),
        state: z.string(),
        country: z.string(),
        countryCode: z.string(),
      })
      .nullable(),
    legalRepresentatives: z.array(
      z.strictObject({
        id: uuidAnswer(),
        legalRepresentationType: z.string(),
        firstName: z.string(),
        lastName: z.string(),
        dob: z.string(),
        nationality: z.string(),
        documentName: z.string(),
        documentNo: z.string(),
        documentExpirationDate: z.string(),
        issueCountry: z.string(),
      }),
    ),
    complete: z.boolean(),
    missingSections: z.array(z.string()),
  }),
);
