import type { ComponentChildren } from 'preact';
import type { ShownError } from '../errors.js';

/** A typed error where the action was: what happened, its code, and what to do about it. */
export function ErrorNote({ error }: { error: ShownError | null | undefined }) {
  if (!error) return null;
  return (
    <div class="error" role="alert">
      <p>
        <strong>{error.message}</strong>
        {error.code && <code class="code">{error.code}</code>}
      </p>
      {error.fields && error.fields.length > 0 && (
        <ul>
          {error.fields.map((field) => (
            <li key={field.path}>
              <code>{field.path}</code>: {field.message}
            </li>
          ))}
        </ul>
      )}
      {error.fix && <p class="fix">{error.fix}</p>}
    </div>
  );
}

/** A status as a word with a symbol, so it reads without colour; the colour only repeats it. */
const SYMBOLS: Record<string, string> = {
  PENDING: '○',
  NOT_STARTED: '○',
  IN_REVIEW: '◐',
  PROCESSING: '◐',
  APPROVED: '●',
  COMPLETED: '●',
  ACTIVE: '●',
  ENABLED: '●',
  SUCCEEDED: '●',
  REJECTED: '✕',
  FAILED: '✕',
  DISABLED: '✕',
  REFUNDED: '↩',
  CANCELED: '–',
  EXPIRED: '⌛',
};

export function Status({ value }: { value: string }) {
  return (
    <span class={`status status-${value.toLowerCase()}`}>
      <span aria-hidden="true">{SYMBOLS[value] ?? '·'} </span>
      {value.toLowerCase().replace(/_/g, ' ')}
    </span>
  );
}

/** A labelled control; `wide` takes a form grid's whole row, for values that must show whole (a wallet address). */
export function Field({ label, children, hint, wide = false }: { label: string; children: ComponentChildren; hint?: string; wide?: boolean }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child each form passes in
    <label class={wide ? 'field wide' : 'field'}>
      <span>{label}</span>
      {children}
      {hint && <small>{hint}</small>}
    </label>
  );
}

export const when = (at: string) => new Date(at).toLocaleString();
export const shortId = (id: string) => id.slice(0, 8);
