import { UnprocessableError } from '../../../domain/errors.js';
import type { Decimal, Token } from '../../../domain/money.js';
import type { WatchedChain, TokenTransfer, TransactionLookup } from '../../../rails/port.js';
import { tokenUnits } from '../../../domain/token-units.js';

/**
 * `complete` on a live chain is verified, not trusted: the hash must be a successful transaction
 * with a `Transfer` log of the quoted token's contract to the transfer's deposit address, for at
 * least the deposit amount in all (the logs to the address add up, as the watcher adds them up).
 * Anything else is refused with its own code (422), the transfer left pending. Answers the largest of
 * the logs that pay the transfer; the watcher records the others.
 */
export function verifiedDeposit(
  chain: WatchedChain,
  lookup: TransactionLookup,
  expected: { token: Token; depositAddress: string; amount: Decimal },
): TokenTransfer {
  if (!lookup.found) {
    throw new UnprocessableError('deposit_transaction_not_found', `No transaction with this hash is on the ${chain.network} chain`);
  }
  if (!lookup.succeeded) throw new UnprocessableError('deposit_transaction_failed', 'The transaction failed on chain (reverted): it moved no tokens');
  const contract = chain.tokens.find((t) => t.token === expected.token)!;
  const address = expected.depositAddress.toLowerCase();
  const toUs = lookup.tokenTransfers.filter((log) => log.to === address);
  const paying = toUs.filter((log) => log.contractAddress === contract.contractAddress.toLowerCase());
  if (!paying.length) {
    if (toUs.length) {
      throw new UnprocessableError(
        'deposit_wrong_token',
        `The transaction sends another token to the deposit address, not ${expected.token} on ${chain.network}`,
      );
    }
    throw new UnprocessableError('deposit_wrong_recipient', "The transaction sends no tokens to this transfer's deposit address");
  }
  // One transaction may pay in several logs (a contract wallet's batch): together they are what it sent.
  const received = tokenUnits(
    paying.reduce((sum, log) => sum + log.amount, 0n),
    contract.decimals,
  );
  if (received.lt(expected.amount)) {
    throw new UnprocessableError(
      'deposit_underpaid',
      `The transaction sends ${received.toFixed()} ${expected.token}, less than the deposit amount ${expected.amount.toFixed()}`,
    );
  }
  return paying.reduce((a, b) => (b.amount > a.amount ? b : a));
}
