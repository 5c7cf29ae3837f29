import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { createHash, randomUUID } from 'node:crypto';
import type { Environment } from '../../domain/environment.js';
import { ConflictError, ForbiddenError, ValidationError, fieldError } from '../../domain/errors.js';
import { parseInput } from '../../domain/validation.js';
import type { Scope } from '../../platform/scope.js';
import { tenantOf } from '../../platform/scope.js';
import type { Customer } from '../customers/entities.js';
import type { CustomerService, VerifiedIdentity } from '../customers/service.js';
import { KycImport } from './entities.js';
import { KycShareImport } from './inputs.js';
import { type KycProvider, type KycShare, MalformedShareToken } from './provider.js';
import { sandboxKycProvider } from './sandbox-provider.js';

export interface KycImportOptions {
  customers: CustomerService;
  /**
   * The provider each environment redeems tokens with. Only the sandbox has one by default:
   * production must never approve people from a fake provider.
   */
  providers?: Partial<Record<Environment, KycProvider>>;
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

const identityOf = ({ applicant }: KycShare): VerifiedIdentity => ({
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
});

/** KYC done elsewhere, brought in (spec §4.1); errors point at the input's `providerSharedToken`. */
export interface KycImportService {
  /**
   * Redeems a provider share token once, then creates or updates the caller's individual customer
   * with that email and moves its KYC to the provider's result. A reused token: 409.
   */
  importKyc(scope: Scope, request: KycShareImport): Promise<Customer>;
}

export function kycImportService(options: KycImportOptions): KycImportService {
  const providers = options.providers ?? { sandbox: sandboxKycProvider };

  async function redeem(provider: KycProvider, token: string): Promise<KycShare> {
    try {
      return await provider.redeem(token);
    } catch (error) {
      if (error instanceof MalformedShareToken) {
        throw new ValidationError([fieldError('/providerSharedToken', 'malformed_token', error.reason)]);
      }
      throw error;
    }
  }

  return {
    async importKyc(scope: Scope, request: KycShareImport): Promise<Customer> {
      const { providerSharedToken: token } = parseInput(KycShareImport, request);
      const provider = providers[scope.actor.environment];
      if (!provider) {
        throw new ForbiddenError('kyc_provider_not_configured', `No KYC provider is configured for ${scope.actor.environment}`);
      }
      const share = await redeem(provider, token);
      return scope.em.transactional(async (em) => {
        // Claim the token first: a concurrent second use waits on the unique key, then fails here.
        const id = randomUUID();
        try {
          await em.insert(KycImport, {
            id,
            ...tenantOf(scope.actor),
            provider: provider.name,
            tokenHash: tokenHash(token),
            customerId: null,
            result: share.result,
            createdAt: new Date(),
          });
        } catch (error) {
          if (error instanceof UniqueConstraintViolationException) {
            throw new ConflictError('kyc_token_already_used', 'This provider share token has already been imported');
          }
          throw error;
        }
        const { customer } = await options.customers.applyVerifiedIdentity({ ...scope, em }, identityOf(share), share.result);
        await em.nativeUpdate(KycImport, { id }, { customerId: customer.id });
        return customer;
      });
    },
  };
}
