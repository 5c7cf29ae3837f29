import { useState } from 'preact/hooks';
import type { ShownError } from '../errors.js';
import {
  type BlockchainNetwork,
  type CustomerPageQuery,
  CreateVirtualAccountDocument,
  type FiatCurrency,
  SimulateVirtualAccountDepositDocument,
  SimulateVirtualAccountIssuanceDocument,
} from '../gql/graphql.js';
import { type ActionOutcome, mutate } from '../mutate.js';
import { useSession } from '../session.js';
import { NETWORKS, SAMPLE_WALLETS } from './onramp-form.js';
import { ErrorNote, Field, Status, shortId } from './ui.js';

type Account = NonNullable<NonNullable<CustomerPageQuery['customer']>['virtualAccounts']>['edges'][number]['node'];

export function VirtualAccounts({ customerId, accounts }: { customerId: string; accounts: readonly Account[] }) {
  const { readOnly } = useSession();
  return (
    <section class="card" aria-labelledby="virtual-accounts-title">
      <h2 id="virtual-accounts-title">Virtual accounts ({accounts.length})</h2>
      {accounts.length === 0 ? (
        <p class="empty">None yet.{readOnly ? '' : ' Open one below: fiat paid into it becomes an on-ramp transfer to its wallet.'}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col">Status</th>
              <th scope="col">Deposit instructions</th>
              <th scope="col">Pays out</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((account) => (
              <tr key={account.id}>
                <td>
                  {account.sourceCurrency}
                  {account.sourceRails ? ` over ${account.sourceRails}` : ''} <code>{shortId(account.databaseId)}</code>
                </td>
                <td>
                  <Status value={account.status} />
                </td>
                <td>
                  {account.depositInstructions ? (
                    <>
                      {account.depositInstructions.bankName}:{' '}
                      {account.depositInstructions.ibanNumber ??
                        `${account.depositInstructions.routingNumber ?? ''} ${account.depositInstructions.accountNumber ?? ''}`}
                    </>
                  ) : (
                    <span class="muted">none until issued</span>
                  )}
                </td>
                <td>
                  {account.destinationToken} on {account.destinationNetwork}
                </td>
                <td>{!readOnly && <AccountActions account={account} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!readOnly && <OpenVirtualAccount customerId={customerId} />}
    </section>
  );
}

function AccountActions({ account }: { account: Account }) {
  const { api } = useSession();
  const [amount, setAmount] = useState('250.00');
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<ActionOutcome>) => {
    setBusy(true);
    const outcome = await action();
    setBusy(false);
    setError(outcome.ok ? null : outcome.error);
  };
  const input = { virtualAccountId: account.id };
  return (
    <div class="actions">
      {account.status === 'PENDING' ? (
        <button type="button" disabled={busy} onClick={() => void run(() => mutate(api.client, SimulateVirtualAccountIssuanceDocument, { input }))}>
          Issue account
        </button>
      ) : (
        <>
          <Field label="Deposit amount">
            <input inputMode="decimal" size={8} value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
          </Field>
          <button
            type="button"
            disabled={busy}
            onClick={() => void run(() => mutate(api.client, SimulateVirtualAccountDepositDocument, { input: { ...input, amount } }))}
          >
            Simulate deposit
          </button>
        </>
      )}
      <ErrorNote error={error} />
    </div>
  );
}

function OpenVirtualAccount({ customerId }: { customerId: string }) {
  const { api } = useSession();
  const [currency, setCurrency] = useState<FiatCurrency>('USD');
  const [swift, setSwift] = useState(false);
  const [network, setNetwork] = useState<BlockchainNetwork>('POLYGON');
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const outcome = await mutate(api.client, CreateVirtualAccountDocument, {
      input: {
        customerId,
        sourceCurrency: currency,
        sourceRails: swift && currency === 'USD' ? 'SWIFT' : undefined,
        destinationNetwork: network,
        destinationAddress: SAMPLE_WALLETS[network],
      },
    });
    setBusy(false);
    setError(outcome.ok ? null : outcome.error);
  };
  return (
    <form onSubmit={submit} class="grid" aria-label="Open a virtual account">
      <Field label="Currency" hint="USD and EUR open active; AED and USD over SWIFT open pending until issued.">
        <select value={currency} onChange={(e) => setCurrency(e.currentTarget.value as FiatCurrency)}>
          <option>USD</option>
          <option>EUR</option>
          <option>AED</option>
        </select>
      </Field>
      {currency === 'USD' && (
        <label class="check">
          <input type="checkbox" checked={swift} onChange={(e) => setSwift(e.currentTarget.checked)} /> over SWIFT
        </label>
      )}
      <Field label="Pays out on">
        <select value={network} onChange={(e) => setNetwork(e.currentTarget.value as BlockchainNetwork)}>
          {NETWORKS.map((n) => (
            <option key={n}>{n}</option>
          ))}
        </select>
      </Field>
      <button type="submit" disabled={busy}>
        Open virtual account
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
