/**
 * A partner's typed Ramp client, as a frontend team would write it over graphql-codegen's client
 * preset: every operation under operations/ becomes a typed document, so results and variables
 * are checked by the compiler (`npm run codegen`, then `tsc -p examples/graphql`).
 */
import {
  ApproveKycDocument,
  CreateCustomerDocument,
  type CreateCustomerInput,
  CreateOnrampQuoteDocument,
  type CreateOnrampQuoteInput,
  CreateOnrampTransferDocument,
  CustomerWithKycDocument,
  PartnerInfoDocument,
  type TransferStatus,
  TransfersPageDocument,
  type TransfersPageQuery,
  type TypedDocumentString,
} from './generated/graphql.js';

export interface RampClientOptions {
  /** Ramp's base URL, e.g. http://127.0.0.1:4000 */
  url: string;
  apiKey: string;
  /** Send only the document's hash (a server with GRAPHQL_TRUSTED_DOCUMENTS runs nothing else). */
  trustedDocuments?: boolean;
}

export type Execute = <R, V>(document: TypedDocumentString<R, V>, variables: V) => Promise<R>;

/** Runs typed operations over HTTP; a GraphQL error (never a typed result such as ValidationError) throws. */
export function rampClient(options: RampClientOptions): Execute {
  return async (document, variables) => {
    const hash = document.__meta__?.hash;
    const operation = options.trustedDocuments && typeof hash === 'string' ? { documentId: hash } : { query: document.toString() };
    const response = await fetch(`${options.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...operation, variables }),
    });
    const result = (await response.json()) as { data?: Awaited<ReturnType<typeof dataOf<typeof document>>>; errors?: { message: string }[] };
    if (result.errors?.length || !result.data) throw new Error(`GraphQL: ${result.errors?.map((e) => e.message).join('; ') ?? response.status}`);
    return result.data;
  };
}

declare function dataOf<D>(document: D): D extends TypedDocumentString<infer R, unknown> ? R : never;

/** Creates a customer and approves its KYC (sandbox), narrowing each typed result by __typename. */
export async function onboardCustomer(execute: Execute, input: CreateCustomerInput) {
  const created = await execute(CreateCustomerDocument, { input });
  if (created.createCustomer.__typename !== 'CreateCustomerPayload') {
    const failure = created.createCustomer;
    const fields = failure.__typename === 'ValidationError' ? failure.fieldErrors.map((e) => `${e.path} ${e.code}`).join(', ') : '';
    throw new Error(`${failure.code}: ${failure.message} ${fields}`);
  }
  const { customer } = created.createCustomer;
  const approved = await execute(ApproveKycDocument, { customerId: customer.id });
  if (approved.simulateKycDecision.__typename !== 'SimulateKycDecisionPayload') throw new Error(approved.simulateKycDecision.code);
  const read = await execute(CustomerWithKycDocument, { id: customer.id });
  return { customer, kyc: read.customer?.kycs ?? null };
}

/** The partner a key belongs to, and its environment. */
export async function whoAmI(execute: Execute) {
  const { partner } = await execute(PartnerInfoDocument, {});
  return partner;
}

/** Typed failures as one readable error: the code, and for validation every field at once. */
function failure(result: { __typename: string; code?: string; message?: string; fieldErrors?: { path: string; code: string }[] }): Error {
  const fields = result.fieldErrors?.map((e) => `${e.path} ${e.code}`).join(', ') ?? '';
  return new Error(`${result.code}: ${result.message} ${fields}`.trim());
}

/** Quotes an on-ramp and turns the quote into a transfer; the customer pays in by the returned deposit instructions. */
export async function startOnramp(execute: Execute, quote: CreateOnrampQuoteInput, destinationAddress: string) {
  const quoted = await execute(CreateOnrampQuoteDocument, { input: quote });
  if (quoted.createOnrampQuote.__typename !== 'CreateOnrampQuotePayload') throw failure(quoted.createOnrampQuote);
  const created = await execute(CreateOnrampTransferDocument, {
    input: { quoteId: quoted.createOnrampQuote.quote.id, destinationAddress, idempotencyKey: `transfer-of-${quoted.createOnrampQuote.quote.id}` },
  });
  if (created.createOnrampTransfer.__typename !== 'CreateOnrampTransferPayload') throw failure(created.createOnrampTransfer);
  return { quote: quoted.createOnrampQuote.quote, transfer: created.createOnrampTransfer.transfer };
}

/** Every transfer in a status, page by page (the cursor of one page is where the next starts). */
export async function allTransfers(execute: Execute, status: TransferStatus, pageSize = 50) {
  const rows: NonNullable<TransfersPageQuery['transfers']>['edges'][number]['node'][] = [];
  let after: string | null = null;
  for (;;) {
    const { transfers }: TransfersPageQuery = await execute(TransfersPageDocument, { first: pageSize, after, status });
    // A connection is null only beside its error (a refused cursor or page size), which execute throws.
    if (!transfers) throw new Error('GraphQL: transfers answered no page');
    rows.push(...transfers.edges.map((edge) => edge.node));
    if (!transfers.pageInfo.hasNextPage) return { totalCount: transfers.totalCount, rows };
    after = transfers.pageInfo.endCursor;
  }
}
