import { ConflictError } from '../../domain/errors.js';
import { useCase } from '../../platform/use-cases/use-case.js';
import { parseInput } from '../../domain/validation.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import type { Customer, CustomerService, SharedVerification } from '../customers/service.js';
import { KycImport } from './entities.js';
import { KycShareImport } from './inputs.js';
import { type KycShares, ShareTokenUsed } from './shares.js';

export interface KycImportOptions {
  customers: CustomerService;
  /** The providers and the single-use rule, shared with the customers' update (services.ts builds them once). */
  shares: KycShares;
}

/** KYC done elsewhere, brought in; errors point at the input's `providerSharedToken`. */
export interface KycImportService {
  /**
   * Redeems a provider share token once, then creates or updates the caller's individual customer
   * with that email and moves its KYC to the provider's result. A reused token: 409.
   */
  importKyc(scope: Scope, request: KycShareImport): Promise<Customer>;
}

export function createKycImportService({ customers, shares }: KycImportOptions): KycImportService {
  return {
    async importKyc(scope: Scope, request: KycShareImport): Promise<Customer> {
      const { providerSharedToken: token } = parseInput(KycShareImport, request);
      return useCase(scope, {
        // Asked before the transaction: a real provider is a network call.
        read: () => shares.redeem(scope, token, '/providerSharedToken'),
        work: async (em, verification) => {
          // Claim the token first: a concurrent second use waits on the unique key, then fails here.
          const claim = await claimOrConflict(shares, { ...scope, em }, verification);
          const { customer } = await customers.applyVerifiedIdentity({ ...scope, em }, verification.identity, verification.result);
          await em.nativeUpdate(KycImport, { id: claim }, { customerId: customer.id });
          return customer;
        },
      });
    },
  };
}

async function claimOrConflict(shares: KycShares, scope: Scope, verification: SharedVerification): Promise<string> {
  try {
    return await shares.claimOnce(scope, verification, null);
  } catch (error) {
    if (error instanceof ShareTokenUsed) throw new ConflictError('kyc_token_already_used', 'This provider share token has already been imported');
    throw error;
  }
}
