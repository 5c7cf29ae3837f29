import { LockMode } from '@mikro-orm/core';
import { useCase } from '../../platform/use-cases/use-case.js';
import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Actor } from '../../domain/environment.js';
import { ValidationError, fieldError } from '../../domain/errors.js';
import { alpha2OfAlpha3, alpha3OfEnglishName } from '../../domain/kyb.js';
import { parseInput } from '../../domain/validation.js';
import { REDACTED } from '../../domain/redaction.js';
import type { DataKeys } from '../customers/data-keys.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import type { Customer, CustomerService } from '../customers/service.js';
import { BusinessLegalRepresentative, BusinessProfile } from './entities.js';
import { BusinessAddress, BusinessBasicDetails, LegalRepresentative } from './inputs.js';
import { type BusinessProfileView, presentBusinessProfile } from './presenters.js';

/**
 * Business KYB import: a corporate customer's profile, saved a section at a time. Inputs
 * are the domain's (inputs.ts), validated here whichever face sent them; a ValidationError's
 * pointers name the input's fields (`/userEmail`), which each face maps to its own spelling in one place.
 */
export interface KybService {
  /** Company name, registration, country, incorporation date, type and contact email. */
  submitBasicDetails(scope: Scope, details: BusinessBasicDetails): Promise<BusinessProfileView>;
  /** The registered address, in the local script and in English. */
  submitAddress(scope: Scope, address: BusinessAddress): Promise<BusinessProfileView>;
  /** Adds a director, or updates the one with the same identity document. */
  submitLegalRepresentative(scope: Scope, representative: LegalRepresentative): Promise<BusinessProfileView>;
  /** Batch read for GraphQL: the profile of each of the caller's corporate customers (null otherwise), in the given order. */
  profilesOf(scope: Scope, customerIds: readonly string[]): Promise<Array<BusinessProfileView | null>>;
  /**
   * Erasure, in the caller's transaction: the business profile's names, numbers, email and address lines
   * read `[redacted]` (its country, type and dates stay) and its directors, people only described by what
   * is erased, are deleted. Returns the erased values, for finding their copies.
   */
  redact(scope: Scope, customerId: string): Promise<string[]>;
}

/** The profile's personal fields: stored sealed by the customer's data key, erased by erasure. */
export const PROFILE_PERSONAL = ['companyName', 'registrationNumber', 'email', 'street', 'streetEn', 'town', 'townEn', 'state'] as const;

type Section<S extends z.ZodType> = (em: EntityManager, actor: Actor, profile: BusinessProfile, data: z.infer<S>) => Promise<void>;

export function createKybService({ customers, dataKeys }: { customers: CustomerService; dataKeys: DataKeys }): KybService {
  /** A value stored sealed by the customer's data key, opened (a redacted customer's, whose key is gone, reads `[redacted]`). */
  const openOf = (em: EntityManager, customerId: string) => async (stored: string) => (await dataKeys.open(em, customerId, stored)) ?? REDACTED;

  /** The directors with their names, birth date and document number opened. */
  const opened = (em: EntityManager, representatives: readonly BusinessLegalRepresentative[]) =>
    Promise.all(
      representatives.map(async (r) => {
        const open = openOf(em, r.customerId);
        const [firstName, lastName, dob, documentNo] = await Promise.all([r.firstName, r.lastName, r.dob, r.documentNo].map(open));
        return { ...r, firstName, lastName, dob, documentNo } as BusinessLegalRepresentative;
      }),
    );

  /** A copy of the profile with its personal fields opened; the entity itself keeps them sealed, as stored. */
  async function openedProfile(em: EntityManager, profile: BusinessProfile | null): Promise<BusinessProfile | null> {
    if (!profile) return null;
    const open = openOf(em, profile.customerId);
    const copy = { ...profile } as BusinessProfile;
    for (const field of PROFILE_PERSONAL) {
      const stored = profile[field];
      if (stored) copy[field] = await open(stored);
    }
    return copy;
  }

  /** `userEmail` must name one of the caller's corporate customers; another partner's reads as unknown. */
  async function corporateCustomer(scope: Scope, userEmail: string): Promise<Customer> {
    const customer = await customers.findByEmail(scope, userEmail);
    if (!customer) {
      throw new ValidationError([fieldError('/userEmail', 'unknown_customer', 'must be the email of one of your corporate customers')]);
    }
    if (customer.type !== 'corporate') {
      throw new ValidationError([fieldError('/userEmail', 'not_corporate', 'belongs to an individual customer; KYB is for corporate customers')]);
    }
    return customer;
  }

  /** The customer's profile row, created on first use and locked so concurrent sections see each other. */
  async function lockedProfile(em: EntityManager, actor: Actor, customerId: string): Promise<BusinessProfile> {
    await em.execute(
      `insert into business_profiles (customer_id, partner_id, environment, created_at, updated_at)
       values (?, ?, ?, now(), now()) on conflict (customer_id) do nothing`,
      [customerId, actor.partnerId, actor.environment],
    );
    return em.findOneOrFail(BusinessProfile, { customerId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  }

  const representativesOf = (em: EntityManager, customerIds: string[]) =>
    em.find(BusinessLegalRepresentative, { customerId: { $in: customerIds } }, { orderBy: { createdAt: 'asc', id: 'asc' } });

  /**
   * Saves one section. A profile that is complete afterwards sends the customer's KYC to
   * compliance review (the reliance review the partner API describes), unless it is already there or approved.
   */
  async function submit<S extends z.ZodType<{ userEmail: string }>>(
    scope: Scope,
    schema: S,
    input: z.input<S>,
    save: Section<S>,
  ): Promise<BusinessProfileView> {
    const data = parseInput(schema, input);
    return useCase(scope, async (em) => {
      const tx = { ...scope, em };
      const customer = await corporateCustomer(tx, data.userEmail);
      const profile = await lockedProfile(em, scope.actor, customer.id);
      await save(em, scope.actor, profile, data);
      profile.updatedAt = new Date();
      await em.flush();
      const view = presentBusinessProfile(customer, await openedProfile(em, profile), await opened(em, await representativesOf(em, [customer.id])));
      if (view.complete) await customers.requestKycReview(tx, customer.id);
      return view;
    });
  }

  const saveBasicDetails: Section<typeof BusinessBasicDetails> = async (em, _actor, profile, d) => {
    const seal = (clear: string) => dataKeys.seal(em, profile.customerId, clear);
    profile.companyName = await seal(d.companyName);
    profile.registrationNumber = await seal(d.registrationNumber);
    profile.country = d.country;
    profile.incorporatedOn = d.incorporatedOn;
    profile.type = d.type;
    profile.email = await seal(d.email);
    profile.basicDetailsSubmittedAt = new Date();
  };

  /** The registered address; it also becomes the customer's address when the customer has none. */
  const saveAddress: Section<typeof BusinessAddress> = async (em, actor, profile, d) => {
    const seal = (clear: string) => dataKeys.seal(em, profile.customerId, clear);
    profile.street = await seal(d.street);
    profile.streetEn = await seal(d.streetEn);
    profile.town = await seal(d.town);
    profile.townEn = await seal(d.townEn);
    profile.state = d.state ? await seal(d.state) : d.state;
    profile.countryName = d.country;
    profile.addressCountry = alpha3OfEnglishName(d.country)!;
    profile.addressSubmittedAt = new Date();
    // In English, as customer addresses are shown; KYB has no postal code, so the customer's has none either.
    const address = { country: alpha2OfAlpha3(profile.addressCountry)!, city: d.townEn, street_line_1: d.streetEn, state: d.state };
    await customers.adoptAddress({ em, actor }, profile.customerId, address);
  };

  /** The same document again updates that representative; another document adds one. */
  const saveRepresentative: Section<typeof LegalRepresentative> = async (em, _actor, profile, d) => {
    const { customerId } = profile;
    const documentDigest = await dataKeys.digest(em, customerId, d.documentNo);
    const document = { customerId, issueCountry: d.issueCountry, documentName: d.documentName };
    const fields = {
      type: d.legalRepresentationType,
      firstName: await dataKeys.seal(em, customerId, d.firstName),
      lastName: await dataKeys.seal(em, customerId, d.lastName),
      dob: await dataKeys.seal(em, customerId, d.dob),
      nationality: d.nationality,
      documentNo: await dataKeys.seal(em, customerId, d.documentNo),
      documentDigest,
      documentExpirationDate: d.documentExpirationDate,
      updatedAt: new Date(),
    };
    // Sealed numbers differ at every sealing: the digest finds the same document (or, not yet sealed, its number).
    const existing = await em.findOne(BusinessLegalRepresentative, {
      ...document,
      $or: [{ documentDigest }, { documentDigest: null, documentNo: d.documentNo }],
    });
    if (existing) em.assign(existing, fields);
    else em.create(BusinessLegalRepresentative, { id: randomUUID(), ...document, ...fields, createdAt: new Date() });
  };

  async function redact({ em }: Scope, customerId: string): Promise<string[]> {
    const profile = await em.findOne(BusinessProfile, { customerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    const representatives = await representativesOf(em, [customerId]);
    // Opened before the data key goes (the customers module destroys it last), so their copies can be found.
    const erased = (await opened(em, representatives)).flatMap((r) => [r.firstName, r.lastName, `${r.firstName} ${r.lastName}`, r.dob, r.documentNo]);
    const clear = await openedProfile(em, profile);
    if (profile && clear) {
      for (const field of PROFILE_PERSONAL) {
        const value = clear[field];
        if (value) {
          erased.push(value);
          profile[field] = REDACTED;
        }
      }
      profile.updatedAt = new Date();
    }
    em.remove(representatives);
    await em.flush();
    return erased;
  }

  return {
    redact,
    submitBasicDetails: (scope, details) => submit(scope, BusinessBasicDetails, details, saveBasicDetails),
    submitAddress: (scope, address) => submit(scope, BusinessAddress, address, saveAddress),
    submitLegalRepresentative: (scope, representative) => submit(scope, LegalRepresentative, representative, saveRepresentative),

    async profilesOf(scope: Scope, customerIds: readonly string[]): Promise<Array<BusinessProfileView | null>> {
      const { em } = scope;
      const corporate = (await customers.loadMany(scope, customerIds)).filter((c) => c.type === 'corporate');
      const ids = corporate.map((c) => c.id);
      const profiles = ids.length ? await em.find(BusinessProfile, { customerId: { $in: ids } }) : [];
      // Opened only here, for the businessProfile field: lists of customers never touch a data key.
      const representatives = ids.length ? await opened(em, await representativesOf(em, ids)) : [];
      const openedProfiles = await Promise.all(profiles.map((p) => openedProfile(em, p)));
      return customerIds.map((id) => {
        const customer = corporate.find((c) => c.id === id);
        if (!customer) return null;
        const profile = openedProfiles.find((p) => p?.customerId === id) ?? null;
        return presentBusinessProfile(
          customer,
          profile,
          representatives.filter((r) => r.customerId === id),
        );
      });
    },
  };
}
