import { useQuery } from '@urql/preact';
import { useEffect } from 'preact/hooks';
import { TransferChainProgressDocument } from '../gql/graphql.js';
import type { TransferView } from './transfer-table.js';

/** How often a transfer still short of its confirmations is read again: about a block of the sandbox chain. */
const POLL_MS = 2_000;

/** The chain transaction of a transfer: an off-ramp's deposit, an on-ramp's payout. */
const hashOf = (t: { __typename?: string; depositTransactionHash?: string | null; destinationTransactionHash?: string | null }) =>
  (t.__typename === 'OfframpTransfer' ? t.depositTransactionHash : t.destinationTransactionHash) ?? null;

const rising = (t: { confirmations?: number | null; requiredConfirmations?: number | null }) =>
  t.confirmations != null && t.requiredConfirmations != null && t.confirmations < t.requiredConfirmations;

/**
 * The transfer's real chain hash (shown whole, linking nowhere: the sandbox chain has no explorer) and its
 * confirmations against the count it waits for. New blocks raise no event, so while the count is short of it
 * the transfer is read again every couple of seconds; the events stream brings the status change that follows.
 */
export function ChainProgress({ transfer }: { transfer: TransferView }) {
  const [{ data }, poll] = useQuery({
    query: TransferChainProgressDocument,
    variables: { id: transfer.id },
    pause: !rising(transfer),
    requestPolicy: 'network-only',
  });
  const shown = { ...transfer, ...(data?.transfer ?? {}) };
  const polling = rising(shown);
  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => poll({ requestPolicy: 'network-only' }), POLL_MS);
    return () => clearInterval(timer);
  }, [polling, poll]);
  const hash = hashOf(shown);
  if (!hash && shown.confirmations == null) return null;
  return (
    <div class="chain" data-chain-hash={hash ?? ''}>
      {hash && (
        <div>
          {transfer.__typename === 'OfframpTransfer' ? 'deposit' : 'payout'} <code class="hash">{hash}</code>
        </div>
      )}
      {shown.confirmations != null && (
        <div class="muted" data-confirmations={shown.confirmations} data-required={shown.requiredConfirmations ?? ''}>
          confirmations {shown.confirmations} / {shown.requiredConfirmations ?? '?'}
        </div>
      )}
    </div>
  );
}
