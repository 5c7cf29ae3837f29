import type { AnyVariables, Client, TypedDocumentNode } from '@urql/core';
import { requestError, type ShownError, typedError } from './errors.js';
import type { MutationErrorFragment } from './gql/graphql.js';

type Member = { __typename?: string };
/** The payload member of a <VerbNoun>Result union. */
export type PayloadOf<Data> = Extract<Data[keyof Data], { __typename?: `${string}Payload` }>;
export type Outcome<Data> = { ok: true; payload: PayloadOf<Data> } | { ok: false; error: ShownError };

/**
 * Runs a mutation of the Relay shape (one `input`, a `<VerbNoun>Result` union): the payload when it
 * worked, else its typed error (code, message, field errors) or the request's failure.
 */
export async function mutate<Data extends Record<string, Member>, Variables extends AnyVariables>(
  client: Client,
  document: TypedDocumentNode<Data, Variables>,
  variables: Variables,
): Promise<Outcome<Data>> {
  const result = await client.mutation(document, variables).toPromise();
  if (result.error || !result.data) return { ok: false, error: result.error ? requestError(result.error) : { message: 'Ramp sent no answer.' } };
  const member = Object.values(result.data)[0] as Member & Partial<MutationErrorFragment>;
  if (member.__typename?.endsWith('Payload')) return { ok: true, payload: member as PayloadOf<Data> };
  return { ok: false, error: typedError(member as MutationErrorFragment) };
}

/** What a button needs to know of any mutation's outcome. */
export type ActionOutcome = { ok: true } | { ok: false; error: ShownError };
