import { z } from 'zod';

const line = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

/** A postal address as the spec writes it (customers, account holders): country is ISO 3166-1 alpha-2. */
export const PostalAddressInput = z.strictObject({
  country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code'),
  city: line(100),
  street_line_1: line(200),
  postal_code: line(20),
  state: z.string().trim().max(100).optional(),
});
export type PostalAddress = z.infer<typeof PostalAddressInput>;

/**
 * A postal address on record, whose postal code may be unknown: a customer's address can come
 * from its KYB business address (the KYB import has no postal code, and the UAE uses none).
 */
export type RecordedAddress = Omit<PostalAddress, 'postal_code'> & { postal_code?: string };

const postal = PostalAddressInput.shape;
/** A postal address in the domain's words; the same rules as the spec's. */
export const Address = z.strictObject({
  country: postal.country,
  city: postal.city,
  streetLine1: postal.street_line_1,
  postalCode: postal.postal_code,
  state: postal.state,
});
export type Address = z.infer<typeof Address>;

/** The address as the spec stores and shows it (snake_case). */
export const postalAddressOf = (a: Address): PostalAddress => ({
  country: a.country,
  city: a.city,
  street_line_1: a.streetLine1,
  postal_code: a.postalCode,
  ...(a.state !== undefined && { state: a.state }),
});
