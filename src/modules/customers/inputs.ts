import { z } from 'zod';
import { type PostalAddress, PostalAddressInput } from '../../domain/address.js';

export const CUSTOMER_TYPES = ['individual', 'corporate'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

const name = z.string().trim().min(1, 'must not be empty').max(200);
// Lower-cased so that uniqueness per partner does not depend on how the partner spells it.
const email = z.email('must be a valid email address').max(254).transform((e) => e.toLowerCase());

export const CustomerAddressInput = PostalAddressInput;
export type CustomerAddress = PostalAddress;

function requireNames(
  value: { type: CustomerType; first_name?: string | null; last_name?: string | null; company_name?: string | null },
  ctx: z.RefinementCtx,
) {
  const missing = (field: string) =>
    ctx.addIssue({ code: 'custom', path: [field], message: `is required for ${value.type} customers`, params: { code: 'required' } });
  if (value.type === 'individual') {
    if (!value.first_name) missing('first_name');
    if (!value.last_name) missing('last_name');
  } else if (!value.company_name) {
    missing('company_name');
  }
}

export const CreateCustomerInput = z
  .strictObject({
    email,
    type: z.enum(CUSTOMER_TYPES),
    first_name: name.optional(),
    last_name: name.optional(),
    company_name: name.optional(),
    address: CustomerAddressInput.optional(),
  })
  .superRefine(requireNames);
export type CreateCustomer = z.infer<typeof CreateCustomerInput>;

const ProfileInput = z.object({
  external_kyc_provider_data: z.strictObject({ provider_share_kyc_token: z.string().min(1).max(4096) }).optional(),
  identifying_information: z
    .strictObject({
      id_document: z
        .strictObject({
          number: z.string().trim().min(1).max(100),
          issuing_country: z.string().regex(/^[A-Z]{2,3}$/, 'must be an ISO 3166-1 country code'),
        })
        .optional(),
      tax_number: z.string().trim().min(1).max(100).optional(),
    })
    .optional(),
  documents: z
    .array(
      z.strictObject({
        file_id: z.string().min(1).max(200),
        purpose: z.string().min(1).max(100),
        description: z.string().max(500).optional(),
      }),
    )
    .max(50)
    .optional(),
});
export type CustomerProfile = z.infer<typeof ProfileInput>;

/**
 * PUT body: an IndividualCustomer or a BusinessCustomer. The spec does not say which holds what;
 * both accept the profile (KYC token, identifying information, documents), the address and
 * email; names go with the customer's type and are checked against it in the service.
 */
export const UpdateCustomerInput = ProfileInput.extend({
  email: email.optional(),
  first_name: name.optional(),
  last_name: name.optional(),
  company_name: name.optional(),
  address: CustomerAddressInput.optional(),
}).strict();
export type UpdateCustomer = z.infer<typeof UpdateCustomerInput>;

export const CustomerFilterInput = z.strictObject({
  email: email.optional(),
  type: z.enum(CUSTOMER_TYPES).optional(),
  kycStatus: z.string().optional(),
});
export type CustomerFilter = z.infer<typeof CustomerFilterInput>;
