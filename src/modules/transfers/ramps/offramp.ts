import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { useCase } from '../../../platform/use-cases/use-case.js';
import { railsNotConnected } from '../../../domain/environment.js';
import type { EntityManager } from '@mikro-orm/sql';
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError, fieldError } from '../../../domain/errors.js';
import { isValidTransactionHash, normalizeTransactionHash, sandboxAddress } from '../../../domain/identifiers/chain.js';
import type { FiatCurrency, Network, Token } from '../../../domain/money.js';
import { assertTransition } from '../../../domain/transfer-status.js';
import { isUuid } from '../../../domain/identifiers/uuid.js';
import { parseInput } from '../../../domain/validation.js';
import type { Scope } from '../../../platform/use-cases/scope.js';
import type { LiveChain, TokenTransfer } from '../../../rails/port.js';
import type { Customer } from '../../customers/service.js';
import { type BankAccountDetails, bankAccountDetailsOf } from '../../bank-accounts/records.js';
import type { TransferDeps } from '../context.js';
import { Quote, Transfer } from '../entities.js';
import { followDeposit } from '../../custody/deposits/follow.js';
import { recordDeposit } from '../../custody/deposits/record.js';
import { depositCalls } from '../calls/deposit.js';
import { verifiedDeposit } from '../../custody/deposits/verify.js';
import { OfframpDeposit, OfframpDestination, OfframpQuoteRequest, type ValidOfframpDestination } from '../inputs.js';
import { assertDepositWindowOpen, lockTransfer, moveTransfer, recordCreation } from './lifecycle.js';
import { sealedDestination } from '../accounts/payout-account.js';
import { payoutProblem } from '../accounts/payout-rails.js';
import { type Quoting, assertKycApproved } from './quotes.js';

type TransferWhere = { id: string; direction: 'offramp'; customerId?: string };

/** A live chain's deposit as `complete` read it, before its transaction: the log paying the transfer, and the head then. */
export interface DepositLookup {
  chain: LiveChain;
  log: TokenTransfer;
  transferId: string;
  head: bigint;
}

/** The next deposit address index: a sequence, so two transfers never share an address, even across instances. */
async function nextDepositAddressIndex(em: EntityManager): Promise<number> {
  const [row] = await em.execute<{ index: string }[]>(`select nextval('deposit_address_index_seq') as index`);
  return Number(row!.index);
}

/** Token to fiat: quote (creating the transfer when it names the destination), complete. */
export function offramp(deps: TransferDeps, quoting: Quoting) {
  /** The payout account: a registered external account of this customer, or one given inline. */
  async function resolveDestination(scope: Scope, customerId: string, quote: Quote, destination: ValidOfframpDestination) {
    let details: BankAccountDetails;
    // Where a mismatch with the rails is reported: the account's id, or the inline field at fault.
    let pointerOf: (field: 'accountType' | 'ibanNumber') => string;
    if (destination.destinationExternalAccountId !== undefined) {
      // Opened: the rails check reads the IBAN's country, and the copy is sealed again for this transfer.
      details = (await deps.bankAccounts.openForPayout(scope, customerId, destination.destinationExternalAccountId)).details;
      pointerOf = () => '/destinationExternalAccountId';
    } else {
      details = bankAccountDetailsOf(destination.destinationBankAccount!);
      pointerOf = (field) => (field === 'accountType' ? '/destinationBankAccount/accountType' : '/destinationBankAccount/iban/ibanNumber');
    }
    const ibanNumber = details.account_type === 'iban' ? details.iban.iban_number : undefined;
    const problem = payoutProblem(quote.destinationRails!, { accountType: details.account_type, ibanNumber });
    if (problem) throw new ValidationError([fieldError(pointerOf(problem.field), problem.code, problem.detail)]);
    return { details, externalAccountId: destination.destinationExternalAccountId ?? null };
  }

  /**
   * A pending off-ramp transfer: the customer sends the tokens to a deposit address of its own. Its payout
   * account is stored with the number sealed; `destination` is the account in clear, for the creation answer.
   */
  async function openTransfer(
    em: EntityManager,
    scope: Scope,
    quote: Quote,
    destination: ValidOfframpDestination,
    held?: Customer,
  ): Promise<{ transfer: Transfer; destination: BankAccountDetails }> {
    // Held (FOR SHARE) until commit: an erasure of the customer waits for this transfer, or ran first and refuses it here.
    const customer = held ?? (await deps.customers.getForNewBusiness({ ...scope, em }, quote.customerId));
    assertKycApproved(customer, quote.destinationCurrency as FiatCurrency, quote.destinationRails!);
    const network = quote.sourceNetwork as Network;
    const chain = deps.rails.chain(scope.actor.environment, network);
    if (!chain) throw railsNotConnected(network);
    const { details, externalAccountId } = await resolveDestination({ ...scope, em }, customer.id, quote, destination);
    const createdAt = quoting.now();
    const id = randomUUID();
    // A live chain's address is one Ramp can spend from: the next child of the deposit xpub, drawn once.
    const index = chain.mode === 'live' ? await nextDepositAddressIndex(em) : null;
    const transfer = em.create(Transfer, {
      id,
      customerId: quote.customerId,
      quoteId: quote.id,
      direction: 'offramp',
      status: 'pending',
      ...(await sealedDestination(em, deps.dataKeys, customer.id, details)),
      destinationExternalAccountId: externalAccountId,
      transferPurpose: destination.transferPurpose!,
      depositBlockchainAddress: chain.mode === 'live' ? chain.depositAddress(index!) : sandboxAddress(network, id),
      depositAddressIndex: index,
      depositExpiresAt: new Date(createdAt.getTime() + deps.depositWindowSeconds * 1000),
      createdAt,
      updatedAt: createdAt,
    });
    await quoting.insertTransfer(em);
    await recordCreation(em, transfer, quote, 'transfer_created');
    return { transfer, destination: details };
  }

  /**
   * A live chain's deposit as the chain shows it, checked before any transaction is opened (a
   * chain's answer can take seconds); null on a simulated network. The transfer is read here to
   * know its network and address, and checked again under its lock.
   */
  async function lookUpDeposit(scope: Scope, where: TransferWhere, hash: string): Promise<DepositLookup | null> {
    const transfer = isUuid(where.id) ? await scope.em.findOne(Transfer, where) : null;
    if (!transfer) throw new NotFoundError('Transfer');
    const quote = await scope.em.findOneOrFail(Quote, { id: transfer.quoteId });
    const network = quote.sourceNetwork as Network;
    if (!isValidTransactionHash(network, hash)) {
      throw new ValidationError([fieldError('/depositTransactionHash', 'invalid_transaction_hash', `is not a valid ${network} transaction hash`)]);
    }
    const chain = deps.rails.chain(transfer.environment, network);
    if (chain?.mode !== 'live') return null;
    // The same refusals as under the lock, before asking the chain about a transfer that cannot take a deposit.
    assertTransition(transfer.status, 'processing', { fundsReceived: transfer.fundsReceivedAt != null });
    assertDepositWindowOpen(transfer, quoting.now());
    const lookup = await chain.lookUpTransaction(normalizeTransactionHash(network, hash));
    const log = verifiedDeposit(chain, lookup, {
      token: quote.sourceCurrency as Token,
      depositAddress: transfer.depositBlockchainAddress!,
      amount: quote.sourceAmount,
    });
    return { chain, log, transferId: transfer.id, head: (await chain.head()).number };
  }

  return {
    /** BySourceAmount or ByDestinationAmount; with a destination and purpose, the transfer too. */
    async createQuote(
      scope: Scope,
      customerId: string,
      request: OfframpQuoteRequest,
    ): Promise<{ quote: Quote; transfer: Transfer | null; destination: BankAccountDetails | null }> {
      const data = parseInput(OfframpQuoteRequest, request);
      return useCase(scope, async (em) => {
        const customer = await deps.customers.getForNewBusiness({ ...scope, em }, customerId);
        const quote = await quoting.createQuote({ ...scope, em }, customer, {
          ...data,
          direction: 'offramp',
          source: data.sourceToken,
          destination: data.destinationCurrency,
          network: data.sourceNetwork,
          fiat: data.destinationCurrency,
          rails: data.destinationPaymentRails,
        });
        const named = data.destinationExternalAccountId !== undefined || data.destinationBankAccount !== undefined;
        const opened = named ? await openTransfer(em, scope, quote, data, customer) : null;
        return { quote, transfer: opened?.transfer ?? null, destination: opened?.destination ?? null };
      });
    },

    /** Align's `POST …/offramp-transfer/quote/{quote_id}`: the transfer of a bare quote (of its own customer without `customerId`). */
    async createTransfer(
      scope: Scope,
      customerId: string | undefined,
      quoteId: string,
      destination: OfframpDestination,
    ): Promise<{ transfer: Transfer; quote: Quote; destination: BankAccountDetails }> {
      const data = parseInput(OfframpDestination, destination);
      return useCase(scope, async (em) => {
        // The customer the path names is read once, held (FOR SHARE) as openTransfer would hold the quote's.
        const customer = customerId === undefined ? undefined : await deps.customers.getForNewBusiness({ ...scope, em }, customerId);
        const quote = await quoting.lockUsableQuote(em, { id: quoteId, direction: 'offramp', ...(customer && { customerId: customer.id }) });
        return { ...(await openTransfer(em, scope, quote, data, customer)), quote };
      });
    },

    /**
     * The customer sent the tokens: the deposit's hash (valid for the quote's network). On a live
     * chain it is looked up first, outside any transaction, and must pay this transfer (verify.ts;
     * 422 otherwise, the transfer left pending): it is recorded as the watcher would record it, and
     * the transfer moves to processing once the network's confirmations are reached (at once when
     * they already are; else it stays pending and shows them). On a simulated network the hash's
     * form alone is checked, and the transfer moves to processing. Any status but pending → 409; a
     * hash that already funded another transfer → 409. Without `customerId`, the transfer's own customer.
     */
    async complete(scope: Scope, customerId: string | undefined, transferId: string, deposit: OfframpDeposit): Promise<{ transfer: Transfer; quote: Quote }> {
      const data = parseInput(OfframpDeposit, deposit);
      const customer = customerId === undefined ? undefined : await deps.customers.get(scope, customerId);
      const where = { id: transferId, direction: 'offramp' as const, ...(customer && { customerId: customer.id }) };
      try {
        return await useCase(scope, {
          // The chain is asked first, outside any transaction: the deposit the hash names, checked against the
          // transfer (422 when it does not pay it); null on a simulated network.
          read: () => lookUpDeposit(scope, where, data.depositTransactionHash),
          work: async (em, onChain) => {
            // Read before the transaction for another transfer, or for none (a simulated network then): refused as a bug.
            if (onChain && onChain.transferId.toLowerCase() !== transferId.toLowerCase())
              throw new Error('the deposit read before this completion is of another transfer');
            // The deposit first, then the transfer: the watcher takes its locks in the same order.
            if (onChain) await recordDeposit(em, onChain.chain, onChain.log, onChain.transferId, 'observed');
            const { transfer, quote } = await lockTransfer(em, where);
            const network = quote.sourceNetwork as Network;
            assertTransition(transfer.status, 'processing', { fundsReceived: transfer.fundsReceivedAt != null });
            assertDepositWindowOpen(transfer, quoting.now());
            // Stored normalised: the unique constraint (environment, deposit_transaction_hash) must see
            // `0xABC…` and `0xabc…` as the one transaction they are, or one deposit funds two transfers.
            transfer.depositTransactionHash = normalizeTransactionHash(network, data.depositTransactionHash);
            if (!onChain) {
              await moveTransfer(em, transfer, quote, 'processing', 'deposit_transaction_submitted');
              return { transfer, quote };
            }
            await em.flush();
            const [recorded] = await em.execute<{ id: string }[]>('select id from chain_deposits where chain_key = ? and tx_hash = ? and log_index = ?', [
              onChain.chain.key,
              onChain.log.txHash,
              onChain.log.logIndex,
            ]);
            // Credits it now when the chain already has its confirmations; else the transfer shows them and waits.
            await followDeposit(em, onChain.chain, depositCalls, recorded!.id, onChain.head);
            return { transfer, quote };
          },
        });
      } catch (error) {
        if (error instanceof UniqueConstraintViolationException && String(error.message).includes('transfers_deposit_hash_once')) {
          throw new ConflictError('deposit_transaction_hash_used', 'This transaction hash already completed another transfer');
        }
        throw error;
      }
    },
  };
}
