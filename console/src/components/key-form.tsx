import { useState } from 'preact/hooks';
import type { ShownError } from '../errors.js';
import { keyProblem } from '../key-store.js';
import { ErrorNote, Field } from './ui.js';

export function KeyForm({ onKey, error, checking }: { onKey: (key: string) => void; error: ShownError | null; checking: boolean }) {
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    const found = keyProblem(trimmed);
    setProblem(found);
    if (!found) onKey(trimmed);
  };
  return (
    <section class="card narrow" aria-labelledby="key-title">
      <h2 id="key-title">Start with an API key</h2>
      <p>
        Paste the <strong>sandbox API key</strong> Ramp printed when it first started (it begins with <code>rk_sandbox_</code>). It stays in this tab only and
        is forgotten when you close it. A production key (<code>rk_live_</code>) opens the console read-only.
      </p>
      <form onSubmit={submit}>
        <Field label="API key">
          <input
            type="password"
            name="api-key"
            autoComplete="off"
            spellcheck={false}
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'key-problem' : undefined}
          />
        </Field>
        {problem && (
          <p id="key-problem" class="error" role="alert">
            {problem}
          </p>
        )}
        <ErrorNote error={error} />
        <button type="submit" disabled={checking}>
          {checking ? 'Checking the key…' : 'Open the console'}
        </button>
      </form>
    </section>
  );
}
