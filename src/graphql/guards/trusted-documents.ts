import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { Plugin } from 'graphql-yoga';
import { readFileSync } from 'node:fs';

/** How a client names a trusted document: `documentId` (GraphQL over HTTP) or Apollo's persistedQuery extension. */
type Params = { documentId?: unknown; extensions?: Record<string, unknown> | null };

/** A trusted-documents manifest: `{ "<sha256>": "<document>" }`, the hash with or without its `sha256:` prefix. */
export type Manifest = Readonly<Record<string, string>>;

/** The documents a frontend Ramp serves itself sends by hash (the console's), of the build it serves now. */
export type FrontendDocuments = () => Promise<Manifest>;

/**
 * Trusted documents (persisted operations), named by hash instead of sent whole.
 * - Ramp's own frontends' documents (the console's, written as it is built) are always registered: they send hashes.
 * - GRAPHQL_TRUSTED_DOCUMENTS, opt-in, is the operator's manifest of their frontends' operations (what `npm run codegen`
 *   writes to examples/graphql/generated/persisted-documents.json). With it, the server runs only the operations of
 *   that manifest and of Ramp's own frontends, named by hash; any other document is refused before parsing. A
 *   production deployment then serves exactly its own frontends' operations.
 */
export class TrustedDocuments {
  private readonly operator: ReadonlyMap<string, string> | null;
  private readonly frontends: { documents: FrontendDocuments; known: ReadonlyMap<string, string> }[];

  constructor(operator: Manifest | null, frontends: readonly FrontendDocuments[] = []) {
    this.operator = operator && byBareHash(operator);
    this.frontends = frontends.map((documents) => ({ documents, known: new Map() }));
  }

  static readManifest(path: string): Manifest {
    const manifest: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (!manifest || typeof manifest !== 'object' || Object.values(manifest).some((d) => typeof d !== 'string')) {
      throw new Error(`GRAPHQL_TRUSTED_DOCUMENTS: ${path} must be a JSON object of hash → document`);
    }
    return manifest as Manifest;
  }

  /** Whether only trusted documents run: the operator loaded a manifest. */
  get only(): boolean {
    return this.operator !== null;
  }

  /** The hash a request names, or null when it names none. */
  static idOf(params: Params): string | null {
    if (typeof params.documentId === 'string') return bare(params.documentId);
    const persisted = params.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined;
    return typeof persisted?.sha256Hash === 'string' ? bare(persisted.sha256Hash) : null;
  }

  /** The document of a hash; a frontend is asked again for a hash it did not have, so a rebuilt console's count at once. */
  async document(id: string): Promise<string | null> {
    const hash = bare(id);
    const operators = this.operator?.get(hash);
    if (operators) return operators;
    for (const frontend of this.frontends) {
      if (!frontend.known.has(hash)) frontend.known = byBareHash(await frontend.documents());
      const document = frontend.known.get(hash);
      if (document) return document;
    }
    return null;
  }

  /** The Yoga plugin for HTTP requests (the WebSocket server checks with `document` itself). */
  plugin(): Plugin {
    const persisted = usePersistedOperations({
      allowArbitraryOperations: !this.only,
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
    }) as Plugin;
    if (this.only) return persisted;
    // Any document runs: a request that names no hash is answered as it would be without trusted documents at all.
    return { ...persisted, onParams: (payload) => (TrustedDocuments.idOf(payload.params as Params) === null ? undefined : persisted.onParams?.(payload)) };
  }
}

/** `sha256:<hex>` and `<hex>` name the same document. */
const bare = (id: string) => id.replace(/^sha256:/, '').toLowerCase();

const byBareHash = (manifest: Manifest): ReadonlyMap<string, string> => new Map(Object.entries(manifest).map(([hash, document]) => [bare(hash), document]));
