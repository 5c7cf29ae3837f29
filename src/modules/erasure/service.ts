import { ConflictError } from '../../domain/errors.js';
import { useCase } from '../../platform/use-cases/use-case.js';
import { requireScope } from '../../domain/scopes.js';
import { blankStoredResponses } from '../../platform/use-cases/idempotency.js';
import { ErasedValues } from '../../platform/security/redaction.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import type { BankAccountService } from '../bank-accounts/service.js';
import { redactBankEntries } from '../bank-payments/operator.js';
import type { Customer, CustomerService } from '../customers/service.js';
import type { EventService } from '../events/service.js';
import type { KybService } from '../kyb/service.js';
import type { TransferService } from '../transfers/service.js';
import type { VirtualAccountService } from '../virtual-accounts/service.js';
import type { WebhookService } from '../webhooks/service.js';

/**
 * Erasure that keeps the ledger (docs/engineering/decisions/security/022-erasure-and-encryption-at-rest.md):
 * a customer's personal data becomes `[redacted]` or null wherever Ramp keeps it, while ids, amounts,
 * statuses and the ledger stay, so the partner's books still balance.
 */
export interface ErasureService {
  /**
   * Redacts a customer (needs the `admin` scope): 409 `customer_has_transfers_in_flight` while one of its
   * transfers is pending or processing. One transaction: every module's rows, the copies in events,
   * delivery logs and stored responses, the destroyed data key, and the `customer.redacted` event.
   * A customer already redacted is returned as it is (no second event).
   */
  redactCustomer(scope: Scope, customerId: string): Promise<Customer>;
}

export interface ErasureDeps {
  customers: CustomerService;
  kyb: Pick<KybService, 'redact'>;
  bankAccounts: Pick<BankAccountService, 'redact'>;
  virtualAccounts: Pick<VirtualAccountService, 'redact'>;
  transfers: Pick<TransferService, 'hasInFlight' | 'redactDestinations'>;
  events: Pick<EventService, 'blankErased'>;
  webhooks: Pick<WebhookService, 'blankErased'>;
}

export function createErasureService(deps: ErasureDeps): ErasureService {
  return {
    async redactCustomer(scope, customerId) {
      requireScope(scope.actor, 'admin');
      return useCase(scope, async (em) => {
        const tx = { ...scope, em };
        // Locked first (FOR UPDATE): no KYC change or update of this customer runs beside its erasure, and a quote,
        // transfer or account being made for it (which holds the row FOR SHARE) commits before the check below sees it.
        const customer = await deps.customers.lockForRedaction(tx, customerId);
        if (customer.redactedAt) return customer;
        if (await deps.transfers.hasInFlight(tx, customer.id)) {
          throw new ConflictError(
            'customer_has_transfers_in_flight',
            'The customer has a transfer still pending or processing; redact it once every transfer is finished',
          );
        }
        const erased = new ErasedValues([
          ...(await deps.customers.personalValues(tx, customer)),
          ...(await deps.kyb.redact(tx, customer.id)),
          ...(await deps.bankAccounts.redact(tx, customer.id)),
          ...(await deps.transfers.redactDestinations(tx, customer.id)),
        ]);
        await deps.virtualAccounts.redact(tx, customer.id);
        await redactBankEntries(em, customer.id);
        // The copies, each naming the customer it copies: events' payloads and kept subjects, delivery logs, stored answers.
        await deps.events.blankErased(tx, customer.id, erased);
        await deps.webhooks.blankErased(tx, customer.id, erased);
        await blankStoredResponses(em, scope.actor, customer.id, erased);
        return deps.customers.redact(tx, customer);
      });
    },
  };
}
