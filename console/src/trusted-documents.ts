/**
 * The console's operations, each as the console sends it → its hash: the trusted-documents manifest of this build,
 * inverted, put here by the build (src/modules/console/bundle.ts, esbuild's `define`). The server registers the same
 * manifest, so the console names each operation by hash and works where only trusted documents run.
 */
declare const CONSOLE_TRUSTED_DOCUMENTS: Readonly<Record<string, string>>;

const idsByDocument = new Map(Object.entries(CONSOLE_TRUSTED_DOCUMENTS));

/** The hash (`sha256:<hex>`) of a document the console sends, if it is one of its own. */
const documentIdOf = (document: string): string | undefined => idsByDocument.get(document);

/**
 * A JSON request body with its document replaced by the document's hash (`documentId`, GraphQL over HTTP's persisted
 * documents). A body that is not JSON, or whose document is not the console's, goes as it is.
 */
export function naming(body: BodyInit | null | undefined): BodyInit | null | undefined {
  if (typeof body !== 'string') return body;
  let request: { query?: unknown };
  try {
    request = JSON.parse(body);
  } catch {
    return body;
  }
  const documentId = typeof request.query === 'string' ? documentIdOf(request.query) : undefined;
  if (!documentId) return body;
  const { query: _sent, ...rest } = request;
  return JSON.stringify({ ...rest, documentId });
}

/** A graphql-ws subscribe payload naming the console's document by hash (Apollo's persistedQuery extension; the protocol has no documentId). */
export function subscribePayload<V extends Record<string, unknown>>(query: string, variables: V) {
  const documentId = documentIdOf(query);
  if (!documentId) return { query, variables };
  return { query: '', variables, extensions: { persistedQuery: { version: 1, sha256Hash: documentId.replace(/^sha256:/, '') } } };
}
