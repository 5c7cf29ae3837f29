import { useState } from 'preact/hooks';
import type { ShownError } from '../errors.js';
import {
  type BlockchainNetwork,
  CreateOnrampQuoteDocument,
  type CreateOnrampQuoteMutation,
  CreateOnrampTransferDocument,
  type FiatCurrency,
  type PaymentRails,
  type Stablecoin,
} from '../gql/graphql.js';
import { mutate, type PayloadOf } from '../mutate.js';
import { useSession } from '../session.js';
import { ErrorNote, Field, shortId, when } from './ui.js';

/** The rails each currency's deposits can take. */
export const RAILS: Record<FiatCurrency, PaymentRails[]> = { USD: ['ACH', 'WIRE', 'SWIFT'], EUR: ['SEPA', 'SWIFT'], AED: ['UAEFTS', 'SWIFT'] };
export const NETWORKS: BlockchainNetwork[] = ['POLYGON', 'ETHEREUM', 'BASE', 'ARBITRUM', 'SOLANA', 'TRON'];
/** Valid sandbox wallets (Ramp's sandboxAddress(network, "sandbox-console")), so a first try needs no address of one's own. */
export const SAMPLE_WALLETS: Record<BlockchainNetwork, string> = {
  ARBITRUM: '0x1CFd7c3F522090dE7D284e914825AB888E37cC2A',
  BASE: '0x4363141c27F5009Bd33c09e63a27ee31BfEB9d1B',
  ETHEREUM: '0x3425C8C04CE4F53C7C7fb92329135a2C45b0a713',
  POLYGON: '0x9AD0BAD1900a8a37f840c197B961847A3a32f0c9',
  SOLANA: 'DAgxC8jtiqAxkEEF5vDrB3T57z8kobtZanbUxgkYyya3',
  TRON: 'THYXMecfPnQZmV15pRy69mB9ZtWeRa5dwK',
};

type Quote = PayloadOf<CreateOnrampQuoteMutation>['quote'];

/** Fiat in, a stablecoin out: price it, then create the pending transfer from the quote. */
export function OnrampForm({ customerId, kycApproved }: { customerId: string; kycApproved: boolean }) {
  const { api, readOnly } = useSession();
  const [currency, setCurrency] = useState<FiatCurrency>('USD');
  const [rails, setRails] = useState<PaymentRails>('ACH');
  const [network, setNetwork] = useState<BlockchainNetwork>('POLYGON');
  const [token, setToken] = useState<Stablecoin>('USDC');
  const [amount, setAmount] = useState('100.00');
  const [address, setAddress] = useState(SAMPLE_WALLETS.POLYGON);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [busy, setBusy] = useState(false);
  if (readOnly) return null;

  const price = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setCreated(null);
    const outcome = await mutate(api.client, CreateOnrampQuoteDocument, {
      input: { customerId, sourceAmount: amount, sourceCurrency: currency, sourcePaymentRails: rails, destinationToken: token, destinationNetwork: network },
    });
    setBusy(false);
    setQuote(outcome.ok ? outcome.payload.quote : null);
    setError(outcome.ok ? null : outcome.error);
  };
  const transfer = async () => {
    if (!quote) return;
    setBusy(true);
    const outcome = await mutate(api.client, CreateOnrampTransferDocument, { input: { quoteId: quote.id, destinationAddress: address } });
    setBusy(false);
    setError(outcome.ok ? null : outcome.error);
    if (outcome.ok) {
      setQuote(null);
      setCreated(outcome.payload.transfer.databaseId);
    }
  };

  return (
    <section class="card" aria-labelledby="onramp-title">
      <h2 id="onramp-title">On-ramp: fiat in, stablecoin out</h2>
      {!kycApproved && <p class="notice">Quotes need an approved KYC: click “Approve KYC” above first.</p>}
      <form onSubmit={price} class="grid">
        <Field label="Customer pays (amount)">
          <input name="amount" inputMode="decimal" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required />
        </Field>
        <Field label="Currency">
          <select
            value={currency}
            onChange={(e) => {
              const next = e.currentTarget.value as FiatCurrency;
              setCurrency(next);
              setRails(RAILS[next][0]!);
            }}
          >
            {Object.keys(RAILS).map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </Field>
        <Field label="Rails">
          <select value={rails} onChange={(e) => setRails(e.currentTarget.value as PaymentRails)}>
            {RAILS[currency].map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </Field>
        <Field label="Token">
          <select value={token} onChange={(e) => setToken(e.currentTarget.value as Stablecoin)}>
            <option>USDC</option>
            <option>USDT</option>
          </select>
        </Field>
        <Field label="Network">
          <select
            value={network}
            onChange={(e) => {
              const next = e.currentTarget.value as BlockchainNetwork;
              setNetwork(next);
              setAddress(SAMPLE_WALLETS[next]);
            }}
          >
            {NETWORKS.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </Field>
        <Field label="Destination wallet" hint="A sandbox wallet is filled in; any valid address on the network works." wide>
          <input name="destinationAddress" value={address} onInput={(e) => setAddress(e.currentTarget.value)} spellcheck={false} required />
        </Field>
        <button type="submit" disabled={busy}>
          Get quote
        </button>
      </form>
      {quote && (
        <div class="quote" aria-live="polite">
          <p>
            Quote: pays{' '}
            <strong>
              {quote.sourceAmount} {quote.sourceCurrency}
            </strong>
            , receives{' '}
            <strong>
              {quote.destinationAmount} {quote.destinationCurrency}
            </strong>{' '}
            (rate {quote.exchangeRate}, fees {quote.feeAmount}), valid until {when(quote.expiresAt)}.
          </p>
          <button type="button" disabled={busy} onClick={() => void transfer()}>
            Create transfer from this quote
          </button>
        </div>
      )}
      {created && (
        <p class="success" role="status">
          Transfer <code>{shortId(created)}</code> created, pending the deposit: click “Simulate fiat deposit” on its row below.
        </p>
      )}
      <ErrorNote error={error} />
    </section>
  );
}
