import { Provider } from '@urql/preact';
import { useEffect, useState } from 'preact/hooks';
import { type Api, type Budget, connect } from '../api.js';
import { requestError, type ShownError } from '../errors.js';
import { ConsolePartnerDocument } from '../gql/graphql.js';
import { forgetKey, savedKey, saveKey } from '../key-store.js';
import { type Session, SessionContext } from '../session.js';
import { Board } from './board.js';
import { CustomerPage } from './customer-page.js';
import { Customers } from './customers.js';
import { KeyForm } from './key-form.js';
import { LiveProvider } from './live.js';
import { Webhooks } from './webhooks.js';

/** The page the address bar's #fragment names: links work with the keyboard and the back button. */
const useRoute = () => {
  const [route, setRoute] = useState(location.hash.slice(1) || '/');
  useEffect(() => {
    const changed = () => setRoute(location.hash.slice(1) || '/');
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
};

type SignedIn = { api: Api; partnerName: string; readOnly: boolean };

export function App() {
  const [signedIn, setSignedIn] = useState<SignedIn | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [checking, setChecking] = useState(false);

  const signIn = async (key: string) => {
    setChecking(true);
    const api = connect(key);
    const result = await api.client.query(ConsolePartnerDocument, {}, { requestPolicy: 'network-only' }).toPromise();
    setChecking(false);
    if (result.error || !result.data) {
      api.close();
      forgetKey();
      setError(result.error ? requestError(result.error) : { message: 'Ramp sent no answer.' });
      return;
    }
    saveKey(key);
    setError(null);
    const { partner } = result.data;
    setSignedIn({ api, partnerName: partner.name, readOnly: partner.activeEnvironment === 'PRODUCTION' });
  };
  const signOut = () => {
    signedIn?.api.close();
    forgetKey();
    setSignedIn(null);
  };

  useEffect(() => {
    const key = savedKey();
    if (key) void signIn(key);
  }, []);

  if (!signedIn) {
    return (
      <Shell>
        <KeyForm onKey={signIn} error={error} checking={checking} />
      </Shell>
    );
  }
  return (
    <LiveProvider api={signedIn.api}>
      {(live) => (
        <Provider value={signedIn.api.client}>
          <SessionContext.Provider value={{ ...signedIn, live } satisfies Session}>
            <Shell signedIn={signedIn} onSignOut={signOut}>
              <Page />
            </Shell>
          </SessionContext.Provider>
        </Provider>
      )}
    </LiveProvider>
  );
}

function Page() {
  const route = useRoute();
  const customer = route.match(/^\/customers\/([^/]+)$/);
  if (customer) return <CustomerPage id={decodeURIComponent(customer[1]!)} />;
  if (route === '/transfers') return <Board />;
  if (route === '/webhooks') return <Webhooks />;
  return <Customers />;
}

function Shell({ signedIn, onSignOut, children }: { signedIn?: SignedIn; onSignOut?: () => void; children: preact.ComponentChildren }) {
  return (
    <>
      <header class="top">
        <h1>Ramp console</h1>
        {signedIn && (
          <>
            <nav aria-label="Sections">
              <a href="#/">Customers</a>
              <a href="#/transfers">Transfers</a>
              <a href="#/webhooks">Webhooks</a>
            </nav>
            <p class="who">
              <BudgetBadge api={signedIn.api} /> {signedIn.partnerName} · <strong>{signedIn.readOnly ? 'Production (read-only)' : 'Sandbox'}</strong>{' '}
              <button type="button" onClick={onSignOut}>
                Sign out
              </button>
            </p>
          </>
        )}
      </header>
      {signedIn?.readOnly && (
        <p class="notice" role="note">
          This is a production key: the console shows everything and changes nothing. Sandbox actions need a sandbox key.
        </p>
      )}
      <main>{children}</main>
    </>
  );
}

/** The key's GraphQL cost bucket as the last answer reported it (docs/api/security.md); nothing until one does. */
function BudgetBadge({ api }: { api: Api }) {
  const [budget, setBudget] = useState<Budget | null>(null);
  useEffect(() => api.onBudget(setBudget), [api]);
  if (!budget) return null;
  return (
    <span class="budget" title={`Refills ${budget.restoreRate} points a second`}>
      GraphQL budget {budget.currentlyAvailable}/{budget.maximumAvailable} ·
    </span>
  );
}
