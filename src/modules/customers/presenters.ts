import { kycStatusOf } from '../../domain/kyc.js';
import type { CustomerRow } from './queries.js';

/**
 * The customer's `kycs` as Align shows them, also the answer of POST /v0/customers/{id}/kycs.
 * `status` is the customer-level status: the rails move together, and should they ever differ the
 * least advanced one counts (kycStatusOf), as GraphQL's `Kyc.status`.
 */
export function presentKycs(customer: CustomerRow, kycFlowLink: string | null) {
  return {
    status: kycStatusOf(customer.kycStatusBreakdown),
    status_breakdown: customer.kycStatusBreakdown,
    sub_status: customer.kycSubStatus ?? null,
    kyc_flow_link: kycFlowLink,
  };
}

/** The customer as the partner API shows it; also the payload of its events. */
export function presentCustomer(customer: CustomerRow, kycFlowLink: string | null) {
  return {
    customer_id: customer.id,
    email: customer.email,
    type: customer.type,
    first_name: customer.firstName ?? null,
    last_name: customer.lastName ?? null,
    company_name: customer.companyName ?? null,
    address: customer.address ?? null,
    kycs: presentKycs(customer, kycFlowLink),
    created_at: customer.createdAt.toISOString(),
    updated_at: customer.updatedAt.toISOString(),
    // Only on a redacted customer, so every other customer reads exactly as before.
    ...(customer.redactedAt && { redacted_at: customer.redactedAt.toISOString() }),
  };
}
export type CustomerView = ReturnType<typeof presentCustomer>;

/** The create response carries exactly these fields, as the partner API's create answer does. */
export function presentCreatedCustomer(customer: CustomerRow) {
  return {
    customer_id: customer.id,
    email: customer.email,
    company_name: customer.companyName ?? null,
    type: customer.type,
    first_name: customer.firstName ?? null,
    last_name: customer.lastName ?? null,
  };
}
