import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import { useCase } from '../../platform/use-cases/use-case.js';
import type { EntityManager } from '@mikro-orm/sql';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { RecordedAddress } from '../../domain/address.js';
import { type Actor, assertSandbox } from '../../domain/environment.js';
import { ConflictError, type FieldError, ForbiddenError, NotFoundError, ValidationError, fieldError } from '../../domain/errors.js';
import { type KycDecision, type KycRailStatus, type KycStatus, type KycSubStatus, kycBreakdown, kycStatusOf, moveKyc, stepKyc } from '../../domain/kyc.js';
import { checkInput, parseInput } from '../../domain/validation.js';
import { recordEvent } from '../../platform/messaging/outbox.js';
import type { KeysetPage, OffsetPage } from '../../platform/reads/pagination.js';
import { type Scope, scopeFor } from '../../platform/use-cases/scope.js';
import { isUuid } from '../../domain/identifiers/uuid.js';
import { ACROSS_TENANTS } from '../../platform/security/tenant.js';
import { Customer } from './entities.js';
import { type Address, CustomerChanges, CustomerFilter, type NameFields, NewCustomer, NewKycLink, namesNotAllowed, providerShareKycToken } from './inputs.js';
import { checkedRedirectUri } from './kyc-links.js';
import { type CustomerView, presentCustomer } from './presenters.js';
import { type CustomerRow, type DigestedFilter, countCustomers, customerPage, customersByOffset } from './queries.js';
import { personalSeal } from './personal-data.js';
import { type StoredProfile, mergedProfile, sealedNumbersOf, storedAddressOf, submitsKyc, withVerifiedDocument } from './records.js';
import type { DataKeys } from './data-keys.js';
import { addressValues } from '../../domain/redaction.js';

/**
 * The customers' use cases. Inputs are the domain's (inputs.ts), validated here whichever face
 * sent them; a ValidationError's pointers name the input's fields (`/taxNumber`), which each face
 * maps to its own spelling in one place.
 */
/** The customer as the use cases return it, for the modules that call them. */
export type { Customer };
/** A customer as a read shows it (a plain row): what another module's read joins in. */
export type { CustomerRow } from './queries.js';

export interface CustomerService {
  create(scope: Scope, customer: NewCustomer): Promise<Customer>;
  get(scope: Scope, id: string): Promise<Customer>;
  /**
   * Inside the caller's transaction, for a use case that makes something for the customer (a quote, a transfer,
   * a bank or virtual account): the customer read FOR SHARE, held until commit. Its erasure locks the row FOR
   * UPDATE, so it waits for that commit and then sees what was made (a transfer in flight), or committed first and
   * this refuses with 409 `customer_redacted`. 404 when unknown.
   */
  getForNewBusiness(scope: Scope, id: string): Promise<Customer>;
  /**
   * `getForNewBusiness` for a use case that checks only the customer's KYC (a quote, a transfer): the same lock, 404
   * and 409, one prepared statement and no entity (the write paths that run most).
   */
  holdForNewBusiness(scope: Scope, id: string): Promise<HeldCustomer>;
  /**
   * Fills in the personal values of customers read without them (`getForNewBusiness`, which most callers use for its
   * lock alone; rows another module's read joined in): their data keys in one read. A row without `personal` is left.
   */
  open(scope: Scope, customers: readonly (Partial<CustomerRow> | null)[]): Promise<void>;
  /**
   * Changes a customer. KYC data starts a verification; a provider share token instead imports the
   * provider's verification of this (individual) customer, in the same transaction as the change.
   * 409 `customer_redacted` for an erased customer.
   */
  update(scope: Scope, id: string, changes: CustomerChanges): Promise<Customer>;
  /** The names `changes` sets that the stored customer's type does not allow (none for an unknown id). */
  namesNotAllowedFor(scope: Scope, id: string, changes: Partial<Record<keyof NameFields, unknown>>): Promise<FieldError[]>;
  /** GraphQL `customers`: a keyset page, oldest first, as plain rows (no entity per row). */
  list(scope: Scope, filter: CustomerFilter, page: KeysetPage): Promise<CustomerRow[]>;
  /** REST's list: `page.limit` customers after the first `page.skip`, oldest first, as plain rows. */
  listByOffset(scope: Scope, filter: CustomerFilter, page: OffsetPage): Promise<CustomerRow[]>;
  /** How many customers the filter matches (a connection's totalCount). */
  count(scope: Scope, filter: CustomerFilter): Promise<number>;
  findByEmail(scope: Scope, email: string): Promise<Customer | null>;
  /** Batch load for GraphQL dataloaders: only the caller's customers come back. */
  loadMany(scope: Scope, ids: readonly string[]): Promise<Customer[]>;

  /** Sandbox: the applicant submits the verification form (→ in_review), as on the hosted page. */
  submitKyc(scope: Scope, id: string): Promise<Customer>;
  /** Sandbox: approve or reject on every rail, as the verification provider would. */
  decideKyc(scope: Scope, id: string, decision: KycDecision): Promise<Customer>;
  /** A complete business profile (KYB) goes to compliance review. */
  requestKycReview(scope: Scope, id: string): Promise<Customer>;
  /** A KYB business address fills the customer's address when it has none; one the partner gave is kept. */
  adoptAddress(scope: Scope, id: string, address: RecordedAddress): Promise<Customer>;
  /** Records what a KYC provider verified: creates or updates the individual, moves its KYC. */
  applyVerifiedIdentity(scope: Scope, identity: VerifiedIdentity, result: KycStatus): Promise<{ customer: Customer; created: boolean }>;
  /**
   * A fresh KYC link (Align's "create KYC session"): a new page token, so every earlier link stops
   * working, and the redirect URI the page returns to after a decision (none when not given).
   * Production has no hosted flow yet: 403 kyc_provider_not_configured.
   */
  createKycLink(scope: Scope, id: string, link: NewKycLink): Promise<Customer>;
  /** The sandbox KYC page's access check: the customer's own scope, or 404. */
  kycPageScope(em: EntityManager, id: string, token: string | undefined): Promise<Scope>;

  /**
   * Erasure, inside the caller's transaction (the erasure module's use case holds it): the locked customer,
   * 404 when unknown. Nothing changes yet.
   */
  lockForRedaction(scope: Scope, id: string): Promise<Customer>;
  /** The personal values `redact` erases (names, email, address lines, document and tax numbers in clear), for finding their copies. */
  personalValues(scope: Scope, customer: Customer): Promise<string[]>;
  /**
   * Erases the customer's personal data (names and email `[redacted]`, address, KYC data and page link gone),
   * destroys its data key and records `customer.redacted`, in the caller's transaction; its id, type, KYC
   * status and dates stay.
   */
  redact(scope: Scope, customer: Customer): Promise<Customer>;

  /** The customer as REST and events show it. */
  view(customer: CustomerRow): CustomerView;
  /** Sandbox: the hosted verification page; null in production. */
  kycFlowLink(customer: CustomerRow): string | null;
}

export interface CustomerServiceOptions {
  /** Base address of this deployment, for the hosted KYC page link. */
  publicUrl: () => string;
  /** Provider share tokens on update (kyc-import provides them; services.ts wires them, so neither module builds the other). */
  kycShares: KycShareTokens;
  /** The customers' data keys, which seal their personal values, document and tax numbers at rest. */
  dataKeys: DataKeys;
}

/** A person whose identity a KYC provider verified (see kyc-import). */
export interface VerifiedIdentity {
  email: string;
  firstName: string;
  lastName: string;
  address: Address;
  idDocument: { number: string; issuingCountry: string };
}

/** A provider's verification behind a share token, redeemed and not yet claimed. */
export interface SharedVerification {
  identity: VerifiedIdentity;
  /** What the provider concluded. */
  result: Extract<KycStatus, 'approved' | 'rejected' | 'in_review'>;
  /** What claiming it records (which provider, the token's SHA-256); opaque here. */
  receipt: { provider: string; tokenHash: string };
}

/**
 * Provider share tokens, as `update` imports them (`external_kyc_provider_data`); errors name
 * `tokenField`, the field of the caller's input that carried the token.
 */
export interface KycShareTokens {
  /** What the provider verified, asked before any transaction: 400 `malformed_token`, 403 `kyc_provider_not_configured`. */
  redeem(scope: Scope, token: string, tokenField: string): Promise<SharedVerification>;
  /** Inside the caller's transaction: uses the token up for this customer, or 400 `kyc_token_already_used`. */
  claim(scope: Scope, verification: SharedVerification, customerId: string, tokenField: string): Promise<void>;
}

const TOKEN_FIELD = '/providerShareKycToken';

/**
 * Whether a provider's verification may become this customer's: it verifies an individual, and the
 * same person, known by the email (the customer's, or the one this update sets), as /auth/importKYC
 * knows them. Another person's verification would make this customer verified as someone else.
 */
function applicantProblems(customer: Customer, { identity }: SharedVerification, newEmail: string | undefined): FieldError[] {
  if (customer.type === 'corporate') {
    return [fieldError(TOKEN_FIELD, 'kyc_import_customer_is_corporate', 'verifies an individual; this customer is corporate')];
  }
  if (identity.email.toLowerCase() !== (newEmail ?? customer.email).toLowerCase()) {
    return [fieldError(TOKEN_FIELD, 'kyc_applicant_mismatch', "was issued for another person: the verified applicant's email is not this customer's")];
  }
  return [];
}

/** What an erased customer answers to anything that would give it data again (decision 022). */
export const customerRedacted = () =>
  new ConflictError('customer_redacted', 'This customer was redacted (erased); it takes no new data, quotes, transfers or accounts');

const emailTaken = () => new ConflictError('customer_email_taken', 'A customer with this email already exists for this partner and environment');

/** 192 random bits: the sandbox KYC page link is a capability, so it must not be guessable. */
const newKycPageToken = () => randomBytes(24).toString('base64url');
const digest = (value: string) => createHash('sha256').update(value).digest();
const sameToken = (given: string, stored: string) => timingSafeEqual(digest(given), digest(stored));

/**
 * A customer as its events keep it, with its personal values opened (events keep them in clear and erasure rewrites
 * them): the page token (a credential), its redirect, the KYC data and the sealed values stay in the table.
 */
const subjectOf = (customer: Customer) => ({
  entity: customer,
  keep: ({ kycPageToken, kycRedirectUri, profile, personal, emailDigest, ...shown }: Record<string, unknown>) => shown,
});

/** What a quote or transfer checks of its customer (`holdForNewBusiness`). */
export type HeldCustomer = Pick<Customer, 'id' | 'kycStatusBreakdown'>;

export function createCustomerService(options: CustomerServiceOptions): CustomerService {
  const personal = personalSeal(options.dataKeys);
  const opened = async (em: EntityManager, customer: Customer | null) => customer && (await personal.open(em, [customer]))[0]!;
  // Production has no hosted flow (a real provider's link would go here), so no link rather than a dead one.
  // An event's snapshot of the customer has no page token, so no link.
  const kycFlowLink = (customer: CustomerRow) =>
    customer.environment === 'sandbox' && customer.kycPageToken
      ? `${options.publicUrl()}/sandbox/kyc/${customer.id}?token=${encodeURIComponent(customer.kycPageToken)}`
      : null;
  const view = (customer: CustomerRow) => presentCustomer(customer, kycFlowLink(customer));

  /**
   * Every KYC change goes through here: the new breakdown and sub status, and the
   * `customer.kycs.updated` event in the same transaction.
   */
  async function changeKyc(em: EntityManager, actor: Actor, customer: Customer, change: { breakdown: KycRailStatus[]; subStatus: KycSubStatus }) {
    customer.kycStatusBreakdown = change.breakdown;
    customer.kycSubStatus = change.subStatus;
    customer.updatedAt = new Date();
    await em.flush();
    await recordEvent(em, actor, {
      type: 'customer.kycs.updated',
      entityType: 'customer',
      customerId: customer.id,
      entityId: customer.id,
      payload: view(customer),
      subject: subjectOf(customer),
    });
  }

  /** Moves one customer's KYC to `to` through the transition table (409 when the table has no way). */
  async function moveCustomerKyc(scope: Scope, id: string, to: KycStatus): Promise<Customer> {
    return useCase(scope, async (em) => {
      const customer = await getForKycChange({ ...scope, em }, id);
      await changeKyc(em, scope.actor, customer, moveKyc(kycStatusOf(customer.kycStatusBreakdown), to));
      return customer;
    });
  }

  async function get({ em }: Scope, id: string): Promise<Customer> {
    const customer = isUuid(id) ? await opened(em, await em.findOne(Customer, { id })) : null;
    if (!customer) throw new NotFoundError('Customer');
    return customer;
  }

  /** Inside a transaction: the customer, locked, so two KYC changes cannot both start from the same status. */
  async function findForKycChange({ em }: Scope, id: string): Promise<Customer | null> {
    return isUuid(id) ? opened(em, await em.findOne(Customer, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true })) : null;
  }

  /** The customer, locked for a change (404 when unknown); an erased one takes none: 409 `customer_redacted`. */
  async function getForKycChange(scope: Scope, id: string): Promise<Customer> {
    const customer = await lockedCustomer(scope, id);
    if (customer.redactedAt) throw customerRedacted();
    return customer;
  }

  async function lockedCustomer(scope: Scope, id: string): Promise<Customer> {
    const customer = await findForKycChange(scope, id);
    if (!customer) throw new NotFoundError('Customer');
    return customer;
  }

  /**
   * What a provider verified becomes the customer's (names, address, identity document), and its
   * KYC moves to the provider's result: unchanged when already there, 409 when the table forbids it.
   */
  async function takeVerifiedIdentity({ em, actor }: Scope, customer: Customer, { identity, result }: { identity: VerifiedIdentity; result: KycStatus }) {
    customer.firstName = identity.firstName;
    customer.lastName = identity.lastName;
    customer.address = storedAddressOf(identity.address);
    customer.profile = await sealedProfile(em, customer.id, withVerifiedDocument(customer.profile, identity.idDocument));
    customer.updatedAt = new Date();
    await personal.seal(em, customer);
    await em.flush();
    const status = kycStatusOf(customer.kycStatusBreakdown);
    if (status !== result) await changeKyc(em, actor, customer, moveKyc(status, result));
  }

  /**
   * The provider's verification behind the token `changes` carry, asked before any transaction (a
   * real provider is a network call); a malformed token is one more problem of the input.
   */
  async function verificationIn(scope: Scope, changes: CustomerChanges): Promise<{ verification?: SharedVerification; errors: FieldError[] }> {
    const token = changes.providerShareKycToken;
    if (token === undefined || !providerShareKycToken.safeParse(token).success) return { errors: [] };
    try {
      return { verification: await options.kycShares.redeem(scope, token, TOKEN_FIELD), errors: [] };
    } catch (error) {
      if (error instanceof ValidationError) return { errors: error.fieldErrors };
      throw error;
    }
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

  async function create(scope: Scope, newCustomer: NewCustomer): Promise<Customer> {
    const data = parseInput(NewCustomer, newCustomer);
    return useCase(scope, async (em) => {
      const now = new Date();
      const customer = em.create(Customer, {
        id: randomUUID(),
        personal: '',
        emailDigest: null,
        email: data.email,
        type: data.type,
        firstName: data.firstName ?? null,
        lastName: data.lastName ?? null,
        companyName: data.companyName ?? null,
        address: data.address ? storedAddressOf(data.address) : null,
        kycStatusBreakdown: kycBreakdown('not_started'),
        kycSubStatus: null,
        kycPageToken: newKycPageToken(),
        kycRedirectUri: null,
        profile: {},
        createdAt: now,
        updatedAt: now,
      });
      const key = await personal.sealNew(em, customer);
      await flushUnique({ ...scope, em });
      await key.store(em);
      await recordEvent(em, scope.actor, {
        type: 'customer.created',
        entityType: 'customer',
        customerId: customer.id,
        entityId: customer.id,
        payload: view(customer),
        subject: subjectOf(customer),
      });
      return customer;
    });
  }

  /** The caller's customer with this email (trimmed, lower-cased, as uniqueness compares them), if any. */
  async function findByEmail({ em }: Scope, email: string): Promise<Customer | null> {
    return opened(em, await em.findOne(Customer, { emailDigest: await options.dataKeys.emailDigest(em, email) }));
  }

  /** The filter with its email as the digest the rows keep. */
  async function digestedFilter({ em }: Scope, filter: CustomerFilter): Promise<DigestedFilter> {
    const { email, ...rest } = filter;
    return { ...rest, ...(email !== undefined && { emailDigest: await options.dataKeys.emailDigest(em, parseInput(CustomerFilter, filter).email!) }) };
  }

  /** A page of plain rows with their personal values opened (their keys in one read). */
  async function openedPage(scope: Scope, rows: Promise<CustomerRow[]>): Promise<CustomerRow[]> {
    return personal.open(scope.em, await rows);
  }

  /** The profile with its document and tax numbers sealed by the customer's data key (those already sealed stay). */
  async function sealedProfile(em: EntityManager, customerId: string, profile: StoredProfile): Promise<StoredProfile> {
    return sealedNumbersOf(profile, (clear) => options.dataKeys.seal(em, customerId, clear));
  }

  return {
    view,
    kycFlowLink,
    get,
    create,
    findByEmail,

    async getForNewBusiness({ em }: Scope, id: string): Promise<Customer> {
      const customer = isUuid(id) ? await em.findOne(Customer, { id }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true }) : null;
      if (!customer) throw new NotFoundError('Customer');
      if (customer.redactedAt) throw customerRedacted();
      return customer;
    },

    async holdForNewBusiness({ em, actor }: Scope, id: string): Promise<HeldCustomer> {
      // Values in the text, as MikroORM sends its own: the transaction's `begin` then leaves with this first statement,
      // one round trip (platform/db/postgres.ts). The tenant is compared here, as every read compares it.
      const [row] = isUuid(id)
        ? await em.execute<{ id: string; redacted_at: Date | null; kyc_status_breakdown: KycRailStatus[] }[]>(
            'select id, redacted_at, kyc_status_breakdown from customers where id = ? and partner_id = ? and environment = ? for share',
            [id, actor.partnerId, actor.environment],
          )
        : [];
      if (!row) throw new NotFoundError('Customer');
      if (row.redacted_at) throw customerRedacted();
      return { id: row.id, kycStatusBreakdown: row.kyc_status_breakdown };
    },

    async open(scope: Scope, customers: readonly (Partial<CustomerRow> | null)[]): Promise<void> {
      const sealed = customers.filter((c): c is Partial<CustomerRow> & { id: string; personal: string } => typeof c?.personal === 'string' && !!c.id);
      if (sealed.length) await personal.open(scope.em, sealed);
    },

    async lockForRedaction(scope: Scope, id: string): Promise<Customer> {
      // A redacted customer too: redacting twice answers it as it is.
      return lockedCustomer(scope, id);
    },

    async personalValues({ em }: Scope, customer: Customer): Promise<string[]> {
      const identity = customer.profile.identifying_information;
      const numbers = await Promise.all(
        [identity?.id_document?.number, identity?.tax_number].map((stored) => (stored ? options.dataKeys.open(em, customer.id, stored) : null)),
      );
      const names = [customer.firstName, customer.lastName, customer.companyName];
      const fullName = customer.firstName && customer.lastName ? `${customer.firstName} ${customer.lastName}` : null;
      return [customer.email, ...names, fullName, ...addressValues(customer.address), ...numbers].filter((v): v is string => !!v);
    },

    async redact({ em, actor }: Scope, customer: Customer): Promise<Customer> {
      const now = new Date();
      personal.redact(customer);
      customer.profile = {};
      // The page link was a credential to act on this customer: no one holds one any more.
      customer.kycPageToken = newKycPageToken();
      customer.kycRedirectUri = null;
      customer.redactedAt = now;
      customer.updatedAt = now;
      await em.flush();
      await options.dataKeys.destroy(em, customer.id);
      await recordEvent(em, actor, {
        type: 'customer.redacted',
        entityType: 'customer',
        customerId: customer.id,
        entityId: customer.id,
        payload: view(customer),
        subject: subjectOf(customer),
      });
      return customer;
    },

    async update(scope: Scope, id: string, changes: CustomerChanges): Promise<Customer> {
      const checked = checkInput(CustomerChanges, changes);
      const shared = await verificationIn(scope, changes);
      return useCase(scope, async (em) => {
        const txScope = { ...scope, em };
        // The names allowed depend on the stored type: those problems join the input's own in one answer.
        const customer = await findForKycChange(txScope, id);
        const errors = [...checked.errors, ...shared.errors, ...(customer ? namesNotAllowed(customer.type, changes) : [])];
        if (customer && shared.verification) errors.push(...applicantProblems(customer, shared.verification, checked.data?.email));
        if (!customer) {
          if (errors.length) throw new ValidationError(errors);
          throw new NotFoundError('Customer');
        }
        // Locked FOR UPDATE above: an erasure committed before is seen here; one started after waits for this change.
        if (customer.redactedAt) throw customerRedacted();
        if (errors.length) throw new ValidationError(errors);
        const data = checked.data!;
        if (data.email !== undefined) customer.email = data.email;
        if (data.firstName !== undefined) customer.firstName = data.firstName;
        if (data.lastName !== undefined) customer.lastName = data.lastName;
        if (data.companyName !== undefined) customer.companyName = data.companyName;
        if (data.address !== undefined) customer.address = storedAddressOf(data.address);
        customer.profile = await sealedProfile(em, customer.id, mergedProfile(customer.profile, data));
        customer.updatedAt = new Date();
        await personal.seal(em, customer);
        await flushUnique(txScope);
        if (shared.verification) {
          // The token is used up in this transaction: a refusal below (the KYC table) leaves it unused.
          await options.kycShares.claim(txScope, shared.verification, customer.id, TOKEN_FIELD);
          await takeVerifiedIdentity(txScope, customer, shared.verification);
          return customer;
        }
        // KYC data starts a verification (or, after a rejection, a resubmission); otherwise it is stored as is.
        const started = submitsKyc(data) ? stepKyc(kycStatusOf(customer.kycStatusBreakdown), 'start') : null;
        if (started) await changeKyc(em, scope.actor, customer, started);
        return customer;
      });
    },

    async namesNotAllowedFor(scope: Scope, id: string, changes: Partial<Record<keyof NameFields, unknown>>): Promise<FieldError[]> {
      const customer = isUuid(id) ? await scope.em.findOne(Customer, { id }) : null;
      return customer ? namesNotAllowed(customer.type, changes) : [];
    },

    list: async (scope, filter, page) => openedPage(scope, customerPage(scope, await digestedFilter(scope, filter), page)),
    listByOffset: async (scope, filter, page) => openedPage(scope, customersByOffset(scope, await digestedFilter(scope, filter), page)),
    count: async (scope, filter) => countCustomers(scope, await digestedFilter(scope, filter)),

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
      return useCase(scope, async (em) => {
        const customer = await getForKycChange({ ...scope, em }, id);
        const status = kycStatusOf(customer.kycStatusBreakdown);
        if (status !== 'in_review' && status !== 'approved') await changeKyc(em, scope.actor, customer, moveKyc(status, 'in_review'));
        return customer;
      });
    },

    async adoptAddress(scope: Scope, id: string, address: RecordedAddress): Promise<Customer> {
      return useCase(scope, async (em) => {
        // Locked as an update locks it, so an address the partner is setting right now is not overwritten.
        const customer = await getForKycChange({ ...scope, em }, id);
        if (!customer.address) {
          customer.address = address;
          customer.updatedAt = new Date();
          await personal.seal(em, customer);
          await em.flush();
        }
        return customer;
      });
    },

    /**
     * Records what a KYC provider verified: creates the individual customer with this email, or
     * updates it with the verified names and address, and moves its KYC to the provider's result
     * (unchanged when already there; 409 when the table forbids it, e.g. approved → rejected).
     */
    async applyVerifiedIdentity(scope: Scope, identity: VerifiedIdentity, result: KycStatus): Promise<{ customer: Customer; created: boolean }> {
      return useCase(scope, async (em) => {
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
            firstName: identity.firstName,
            lastName: identity.lastName,
            address: identity.address,
          }));
        await takeVerifiedIdentity(txScope, customer, { identity, result });
        return { customer, created: !existing };
      });
    },

    async createKycLink(scope: Scope, id: string, link: NewKycLink): Promise<Customer> {
      const data = parseInput(NewKycLink, link);
      const redirectUri = data.redirectUri === undefined ? null : checkedRedirectUri(data.redirectUri, scope.actor.environment);
      return useCase(scope, async (em) => {
        const customer = await getForKycChange({ ...scope, em }, id);
        if (scope.actor.environment !== 'sandbox') {
          throw new ForbiddenError(
            'kyc_provider_not_configured',
            'No KYC provider is configured for production: there is no hosted verification flow to link to',
          );
        }
        customer.kycPageToken = newKycPageToken();
        customer.kycRedirectUri = redirectUri;
        customer.updatedAt = new Date();
        await em.flush();
        return customer;
      });
    },

    /**
     * The sandbox KYC page's access check: the link's token is the credential (no API key), so
     * a wrong token, an unknown id and a production customer all look the same: 404.
     * Returns the customer's own scope, so the page calls the same use cases as the API.
     */
    async kycPageScope(em: EntityManager, id: string, token: string | undefined): Promise<Scope> {
      // Before the token is checked there is no tenant yet: the customer's id is looked up in all of them.
      const customer = isUuid(id) ? await em.findOne(Customer, { id, environment: 'sandbox' }, ACROSS_TENANTS) : null;
      if (!customer || !token || !sameToken(token, customer.kycPageToken)) throw new NotFoundError('Customer');
      return scopeFor(em, { partnerId: customer.partnerId, environment: 'sandbox', apiKeyId: 'sandbox-kyc-page', apiKeyPrefix: 'sandbox-kyc-page' });
    },

    /** Batch load for GraphQL dataloaders: only the caller's customers come back. */
    async loadMany({ em }: Scope, ids: readonly string[]): Promise<Customer[]> {
      return personal.open(em, await em.find(Customer, { id: { $in: ids.filter(isUuid) } }));
    },
  };
}
