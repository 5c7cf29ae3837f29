import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError, fieldError } from '../../domain/errors.js';
import { type KycDecision, type KycRailStatus, type KycStatus, type KycSubStatus, kycBreakdown, kycStatusOf, moveKyc, stepKyc } from '../../domain/kyc.js';
import { type Actor, assertSandbox } from '../../domain/environment.js';
import { parseInput } from '../../domain/validation.js';
import { recordEvent } from '../../platform/outbox.js';
import { type KeysetPage, keysetQuery } from '../../platform/pagination.js';
import { type Scope, isUuid, tenantOf } from '../../platform/scope.js';
import { Customer } from './entities.js';
import { CreateCustomerInput, CustomerFilterInput, type CustomerAddress, type CustomerProfile, UpdateCustomerInput } from './inputs.js';
import { presentCustomer } from './presenters.js';

const emailTaken = () =>
  new ConflictError('customer_email_taken', 'A customer with this email already exists for this partner and environment');

export interface CustomerServiceOptions {
  /** Base address of this deployment, for the hosted KYC page link. */
  publicUrl: () => string;
}

/** A person whose identity a KYC provider verified (see kyc-import). */
export interface VerifiedIdentity {
  email: string;
  firstName: string;
  lastName: string;
  address: CustomerAddress;
  profile: CustomerProfile;
}

/** 192 random bits: the sandbox KYC page link is a capability, so it must not be guessable. */
const newKycPageToken = () => randomBytes(24).toString('base64url');
const digest = (value: string) => createHash('sha256').update(value).digest();
const sameToken = (given: string, stored: string) => timingSafeEqual(digest(given), digest(stored));

export function customerService(options: CustomerServiceOptions) {
  // Production has no hosted flow (a real provider's link would go here), so no link rather than a dead one.
  const kycFlowLink = (customer: Customer) =>
    customer.environment === 'sandbox'
      ? `${options.publicUrl()}/sandbox/kyc/${customer.id}?token=${encodeURIComponent(customer.kycPageToken)}`
      : null;
  const view = (customer: Customer) => presentCustomer(customer, kycFlowLink(customer));

  /**
   * Every KYC change goes through here: the new breakdown and sub status, and the
   * `customer.kycs.updated` event in the same transaction.
   */
  async function changeKyc(em: EntityManager, actor: Actor, customer: Customer, change: { breakdown: KycRailStatus[]; subStatus: KycSubStatus }) {
    customer.kycStatusBreakdown = change.breakdown;
    customer.kycSubStatus = change.subStatus;
    customer.updatedAt = new Date();
    await em.flush();
    await recordEvent(em, actor, { type: 'customer.kycs.updated', entityType: 'customer', entityId: customer.id, payload: view(customer) });
  }

  /** Moves one customer's KYC to `to` through the transition table (409 when the table has no way). */
  async function moveCustomerKyc(scope: Scope, id: string, to: KycStatus): Promise<Customer> {
    return scope.em.transactional(async (em) => {
      const customer = await getForKycChange({ ...scope, em }, id);
      await changeKyc(em, scope.actor, customer, moveKyc(kycStatusOf(customer.kycStatusBreakdown), to));
      return customer;
    });
  }

  async function get({ em, actor }: Scope, id: string): Promise<Customer> {
    const customer = isUuid(id) ? await em.findOne(Customer, { id, ...tenantOf(actor) }) : null;
    if (!customer) throw new NotFoundError('Customer');
    return customer;
  }

  /** Inside a transaction: the customer, locked, so two KYC changes cannot both start from the same status. */
  async function getForKycChange({ em, actor }: Scope, id: string): Promise<Customer> {
    const customer = isUuid(id)
      ? await em.findOne(Customer, { id, ...tenantOf(actor) }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })
      : null;
    if (!customer) throw new NotFoundError('Customer');
    return customer;
  }

  /** Flushes, turning the per-partner email uniqueness into a 409. */
  async function flushUnique(scope: Scope) {
    try {
      await scope.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw emailTaken();
      throw error;
    }
  }

  async function create(scope: Scope, input: unknown): Promise<Customer> {
    const data = parseInput(CreateCustomerInput, input);
    return scope.em.transactional(async (em) => {
      const now = new Date();
      const customer = em.create(Customer, {
        id: randomUUID(),
        ...tenantOf(scope.actor),
        email: data.email,
        type: data.type,
        firstName: data.first_name ?? null,
        lastName: data.last_name ?? null,
        companyName: data.company_name ?? null,
        address: data.address ?? null,
        kycStatusBreakdown: kycBreakdown('not_started'),
        kycSubStatus: null,
        kycPageToken: newKycPageToken(),
        profile: {},
        createdAt: now,
        updatedAt: now,
      });
      await flushUnique({ ...scope, em });
      await recordEvent(em, scope.actor, {
        type: 'customer.created',
        entityType: 'customer',
        entityId: customer.id,
        payload: view(customer),
      });
      return customer;
    });
  }

  /** The caller's customer with this email, if any (emails are stored lower-cased). */
  async function findByEmail({ em, actor }: Scope, email: string): Promise<Customer | null> {
    return em.findOne(Customer, { email: email.trim().toLowerCase(), ...tenantOf(actor) });
  }

  return {
    view,
    kycFlowLink,
    get,
    create,
    findByEmail,

    async update(scope: Scope, id: string, input: unknown): Promise<Customer> {
      const data = parseInput(UpdateCustomerInput, input);
      return scope.em.transactional(async (em) => {
        const customer = await getForKycChange({ ...scope, em }, id);
        const wrongNames =
          customer.type === 'individual'
            ? (['company_name'] as const).filter((f) => data[f] !== undefined)
            : (['first_name', 'last_name'] as const).filter((f) => data[f] !== undefined);
        if (wrongNames.length) {
          throw new ValidationError(
            wrongNames.map((f) => fieldError(`/${f}`, 'not_allowed', `is not allowed for ${customer.type} customers`)),
          );
        }
        const { email, first_name, last_name, company_name, address, ...profile } = data;
        if (email !== undefined) customer.email = email;
        if (first_name !== undefined) customer.firstName = first_name;
        if (last_name !== undefined) customer.lastName = last_name;
        if (company_name !== undefined) customer.companyName = company_name;
        if (address !== undefined) customer.address = address;
        customer.profile = { ...customer.profile, ...profile };
        customer.updatedAt = new Date();
        await flushUnique({ ...scope, em });
        // KYC data starts a verification (or, after a rejection, a resubmission); otherwise it is stored as is.
        const submitsKyc = profile.external_kyc_provider_data || profile.identifying_information || profile.documents;
        const started = submitsKyc ? stepKyc(kycStatusOf(customer.kycStatusBreakdown), 'start') : null;
        if (started) await changeKyc(em, scope.actor, customer, started);
        return customer;
      });
    },

    async list({ em, actor }: Scope, filter: unknown, page: KeysetPage): Promise<Customer[]> {
      const f = parseInput(CustomerFilterInput, filter ?? {});
      const { where, orderBy, limit } = keysetQuery(page);
      const byKyc = f.kycStatus ? { kycStatusBreakdown: { $contains: [{ status: f.kycStatus }] } } : {};
      return em.find(
        Customer,
        { ...where, ...tenantOf(actor), ...(f.email && { email: f.email }), ...(f.type && { type: f.type }), ...byKyc },
        { orderBy, limit },
      );
    },

    /** Sandbox: the applicant submits the verification form (→ in_review), as on the hosted page. */
    async submitKyc(scope: Scope, id: string): Promise<Customer> {
      assertSandbox(scope.actor);
      return moveCustomerKyc(scope, id, 'in_review');
    },

    /**
     * Sandbox: approve or reject a customer's KYC on every rail, as the verification provider
     * would. A customer that has not submitted yet walks the table's steps to the decision.
     */
    async decideKyc(scope: Scope, id: string, decision: KycDecision): Promise<Customer> {
      assertSandbox(scope.actor);
      return moveCustomerKyc(scope, id, decision);
    },

    /**
     * A complete business profile (KYB) goes to compliance review. Customers already in review
     * or approved stay where they are: more documents do not restart a verification.
     */
    async requestKycReview(scope: Scope, id: string): Promise<Customer> {
      return scope.em.transactional(async (em) => {
        const customer = await getForKycChange({ ...scope, em }, id);
        const status = kycStatusOf(customer.kycStatusBreakdown);
        if (status !== 'in_review' && status !== 'approved') await changeKyc(em, scope.actor, customer, moveKyc(status, 'in_review'));
        return customer;
      });
    },

    /**
     * Records what a KYC provider verified: creates the individual customer with this email, or
     * updates it with the verified names and address, and moves its KYC to the provider's result
     * (unchanged when already there; 409 when the table forbids it, e.g. approved → rejected).
     */
    async applyVerifiedIdentity(scope: Scope, identity: VerifiedIdentity, result: KycStatus): Promise<{ customer: Customer; created: boolean }> {
      return scope.em.transactional(async (em) => {
        const txScope = { ...scope, em };
        const found = await findByEmail(txScope, identity.email);
        const existing = found && (await getForKycChange(txScope, found.id));
        if (existing?.type === 'corporate') {
          throw new ConflictError('kyc_import_customer_is_corporate', 'The customer with this email is corporate; a KYC import verifies individuals');
        }
        const customer =
          existing ??
          (await create(txScope, {
            email: identity.email,
            type: 'individual',
            first_name: identity.firstName,
            last_name: identity.lastName,
            address: identity.address,
          }));
        customer.firstName = identity.firstName;
        customer.lastName = identity.lastName;
        customer.address = identity.address;
        customer.profile = { ...customer.profile, ...identity.profile };
        customer.updatedAt = new Date();
        await em.flush();
        const status = kycStatusOf(customer.kycStatusBreakdown);
        if (status !== result) await changeKyc(em, scope.actor, customer, moveKyc(status, result));
        return { customer, created: !existing };
      });
    },

    /**
     * The sandbox KYC page's access check: the link's token is the credential (no API key), so
     * a wrong token, an unknown id and a production customer all look the same: 404.
     * Returns the customer's own scope, so the page calls the same use cases as the API.
     */
    async kycPageScope(em: EntityManager, id: string, token: string | undefined): Promise<Scope> {
      const customer = isUuid(id) ? await em.findOne(Customer, { id, environment: 'sandbox' }) : null;
      if (!customer || !token || !sameToken(token, customer.kycPageToken)) throw new NotFoundError('Customer');
      return { em, actor: { partnerId: customer.partnerId, environment: 'sandbox', apiKeyId: 'sandbox-kyc-page' } };
    },

    /** Batch load for GraphQL dataloaders: only the caller's customers come back. */
    async loadMany({ em, actor }: Scope, ids: readonly string[]): Promise<Customer[]> {
      return em.find(Customer, { id: { $in: ids.filter(isUuid) }, ...tenantOf(actor) });
    },
  };
}
export type CustomerService = ReturnType<typeof customerService>;
