import type { Customer } from './entities.js';

/** The customer as REST shows it (spec §2.1); also the payload of its events. */
export function presentCustomer(customer: Customer, kycFlowLink: string | null) {
  return {
    customer_id: customer.id,
    email: customer.email,
    type: customer.type,
    first_name: customer.firstName ?? null,
    last_name: customer.lastName ?? null,
    company_name: customer.companyName ?? null,
    address: customer.address ?? null,
    kycs: {
      status_breakdown: customer.kycStatusBreakdown,
      sub_status: customer.kycSubStatus ?? null,
      kyc_flow_link: kycFlowLink,
    },
    created_at: customer.createdAt.toISOString(),
    updated_at: customer.updatedAt.toISOString(),
  };
}
export type CustomerView = ReturnType<typeof presentCustomer>;

/** The create response carries exactly these fields (spec §4.1). */
export function presentCreatedCustomer(customer: Customer) {
  return {
    customer_id: customer.id,
    email: customer.email,
    company_name: customer.companyName ?? null,
    type: customer.type,
    first_name: customer.firstName ?? null,
    last_name: customer.lastName ?? null,
  };
}
