import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { createHash, randomUUID } from 'node:crypto';
import type { Environment } from '../../domain/environment.js';
import { ForbiddenError, ValidationError, fieldError } from '../../domain/errors.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import { tenantOf } from '../../platform/use-cases/scope.js';
import type { KycShareTokens, SharedVerification } from '../customers/service.js';
import { KycImport } from './entities.js';
import { type KycProvider, type KycShare, MalformedShareToken } from './provider.js';
import { sandboxKycProvider } from './sandbox-provider.js';

/**
 * A provider's share token, redeemed and then claimed: the one single-use rule of `/auth/importKYC`
 * and of `PUT /v0/customers/{id}` with `external_kyc_provider_data`. A token counts once per partner
 * and environment, whichever way it came in; only its SHA-256 is kept, and the unique key refuses
 * a second use (not a read, so two requests at the same moment cannot both use it).
 */
export interface KycShares extends KycShareTokens {
  /** Inside the caller's transaction: uses the token up, or throws `ShareTokenUsed`; returns the claim's id. */
  claimOnce(scope: Scope, verification: SharedVerification, customerId: string | null): Promise<string>;
}

/** Production must never approve people from a fake provider: only the sandbox has one by default. */
export type KycProviders = Partial<Record<Environment, KycProvider>>;

/** The token was used before (by this partner, in this environment). */
export class ShareTokenUsed extends Error {
  constructor() {
    super('This provider share token has already been used');
    this.name = 'ShareTokenUsed';
  }
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The verified person in the customers' words. */
function verificationOf(provider: KycProvider, token: string, { applicant, result }: KycShare): SharedVerification {
  return {
    identity: {
      email: applicant.email,
      firstName: applicant.firstName,
      lastName: applicant.lastName,
      address: {
        country: applicant.address.country,
        city: applicant.address.city,
        streetLine1: applicant.address.street_line_1,
        postalCode: applicant.address.postal_code,
        state: applicant.address.state,
      },
      idDocument: { number: applicant.idDocument.number, issuingCountry: applicant.idDocument.issuingCountry },
    },
    result,
    receipt: { provider: provider.name, tokenHash: tokenHash(token) },
  };
}

export function createKycShares(providers: KycProviders = { sandbox: sandboxKycProvider }): KycShares {
  async function claimOnce(scope: Scope, verification: SharedVerification, customerId: string | null): Promise<string> {
    const id = randomUUID();
    try {
      await scope.em.insert(KycImport, {
        id,
        ...tenantOf(scope.actor),
        provider: verification.receipt.provider,
        tokenHash: verification.receipt.tokenHash,
        customerId,
        result: verification.result,
        createdAt: new Date(),
      });
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw new ShareTokenUsed();
      throw error;
    }
    return id;
  }

  return {
    claimOnce,

    async redeem(scope: Scope, token: string, tokenField: string): Promise<SharedVerification> {
      const provider = providers[scope.actor.environment];
      if (!provider) throw new ForbiddenError('kyc_provider_not_configured', `No KYC provider is configured for ${scope.actor.environment}`);
      try {
        return verificationOf(provider, token, await provider.redeem(token));
      } catch (error) {
        if (error instanceof MalformedShareToken) throw new ValidationError([fieldError(tokenField, 'malformed_token', error.reason)]);
        throw error;
      }
    },

    async claim(scope: Scope, verification: SharedVerification, customerId: string, tokenField: string): Promise<void> {
      try {
        await claimOnce(scope, verification, customerId);
      } catch (error) {
        if (error instanceof ShareTokenUsed) throw new ValidationError([fieldError(tokenField, 'kyc_token_already_used', error.message)]);
        throw error;
      }
    },
  };
}
