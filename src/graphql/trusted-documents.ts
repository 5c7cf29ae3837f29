import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';
import { readFileSync } from 'node:fs';

/** How a client names a trusted document: `documentId` (GraphQL over HTTP) or Apollo's persistedQuery extension. */
type Params = { documentId?: unknown; extensions?: Record<string, unknown> | null };

/**
 * Trusted documents (persisted operations), opt-in with GRAPHQL_TRUSTED_DOCUMENTS: the server runs
 * only the operations of a manifest `{ "<sha256>": "<document>" }` (what `npm run codegen` writes to
 * examples/graphql/generated/persisted-documents.json), named by hash; any other document is
 * refused before parsing. A production deployment then serves exactly its own frontends' operations.
 */
export class TrustedDocuments {
  private readonly documents: ReadonlyMap<string, string>;

  constructor(manifest: Record<string, string>) {
    this.documents = new Map(Object.entries(manifest).map(([hash, document]) => [bare(hash), document]));
  }

  static fromFile(path: string): TrustedDocuments {
    const manifest: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!manifest || typeof manifest !== 'object' || Object.values(manifest).some((d) => typeof d !== 'string')) {
      throw new Error(`GRAPHQL_TRUSTED_DOCUMENTS: ${path} must be a JSON object of hash → document`);
    }
    return new TrustedDocuments(manifest as Record<string, string>);
  }

  /** The hash a request names, or null when it names none. */
  static idOf(params: Params): string | null {
    if (typeof params.documentId === 'string') return bare(params.documentId);
    const persisted = params.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined;
    return typeof persisted?.sha256Hash === 'string' ? bare(persisted.sha256Hash) : null;
  }

  document(id: string): string | null {
    return this.documents.get(bare(id)) ?? null;
  }

  /** The Yoga plugin for HTTP requests (the WebSocket server checks with `document` itself). */
  plugin(): Plugin {
    return usePersistedOperations({
      allowArbitraryOperations: false,
      extractPersistedOperationId: (params) => TrustedDocuments.idOf(params as Params),
      getPersistedOperation: (id) => this.document(id),
      customErrors: {
        persistedQueryOnly: {
          message: 'Only trusted documents run here: send documentId (the sha256 of a registered operation) instead of a query',
          extensions: { code: 'PERSISTED_QUERY_ONLY', http: { status: 400 } },
        },
        keyNotFound: { message: 'Name a trusted document with documentId', extensions: { code: 'PERSISTED_QUERY_ID_REQUIRED', http: { status: 400 } } },
        notFound: {
          message: 'This documentId is not one of the trusted documents',
          extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST', http: { status: 400 } },
        },
      },
    });
  }
}

/** `sha256:<hex>` and `<hex>` name the same document. */
const bare = (id: string) => id.replace(/^sha256:/, '').toLowerCase();
