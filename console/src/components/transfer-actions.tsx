import { useState } from 'preact/hooks';
import type { ShownError } from '../errors.js';
import {
  SimulateFiatDepositDocument,
  SimulateTransferFailureDocument,
  SimulateTransferRefundDocument,
  SimulateTransferSettlementDocument,
  type TransferRowFragment,
} from '../gql/graphql.js';
import { type ActionOutcome, mutate } from '../mutate.js';
import { useSession } from '../session.js';
import { ErrorNote } from './ui.js';

type Action = { label: string; run: () => Promise<ActionOutcome> };

/** The sandbox's buttons for one transfer, those its status allows; none with a production key. */
export function TransferActions({ transfer }: { transfer: TransferRowFragment }) {
  const { api, readOnly } = useSession();
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  if (readOnly) return null;

  const input = { transferId: transfer.id };
  const deposit: Action = { label: 'Simulate fiat deposit', run: () => mutate(api.client, SimulateFiatDepositDocument, { input }) };
  const settle: Action = { label: 'Settle', run: () => mutate(api.client, SimulateTransferSettlementDocument, { input }) };
  const fail: Action = { label: 'Fail', run: () => mutate(api.client, SimulateTransferFailureDocument, { input }) };
  const refund: Action = { label: 'Refund', run: () => mutate(api.client, SimulateTransferRefundDocument, { input }) };
  const onramp = transfer.__typename === 'OnrampTransfer';
  const actions: Action[] =
    transfer.status === 'PENDING'
      ? [...(onramp ? [deposit] : []), fail]
      : transfer.status === 'PROCESSING'
        ? [settle, fail, refund]
        : transfer.status === 'FAILED' && onramp && transfer.depositReceivedAmount
          ? [refund]
          : [];
  if (actions.length === 0) return error ? <ErrorNote error={error} /> : null;

  const click = async (action: Action) => {
    setBusy(action.label);
    const outcome = await action.run();
    setBusy(null);
    setError(outcome.ok ? null : outcome.error);
  };
  return (
    <fieldset class="actions">
      <legend class="visually-hidden">Sandbox actions for transfer {transfer.databaseId}</legend>
      {actions.map((action) => (
        <button key={action.label} type="button" disabled={busy !== null} onClick={() => void click(action)}>
          {busy === action.label ? `${action.label}…` : action.label}
        </button>
      ))}
      <ErrorNote error={error} />
    </fieldset>
  );
}
