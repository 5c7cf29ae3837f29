import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OperationDefinitionNode, parse } from 'graphql';
import { buildConsole, bundleIsStale, readTrustedDocuments } from '../../../src/modules/console/bundle.js';
import type { ApiClient } from '../ramp.js';

/** One operation of the console, as its build registered it: the hash it is sent by and the document it names. */
export interface ConsoleOperation {
  documentId: string;
  name: string;
  kind: OperationDefinitionNode['operation'];
  document: string;
  variables: string[];
}

/**
 * Every operation the console sends, read from the trusted-documents manifest its build writes (built first when
 * stale): the operations a test checks are the ones the server registers, so the two never drift apart.
 */
export async function consoleOperations(): Promise<ConsoleOperation[]> {
  if (bundleIsStale()) await buildConsole();
  return Object.entries(readTrustedDocuments()).map(([documentId, document]) => {
    const operation = parse(document).definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')!;
    return {
      documentId,
      name: operation.name!.value,
      kind: operation.operation,
      document,
      variables: (operation.variableDefinitions ?? []).map((v) => v.variable.name.value),
    };
  });
}

/** The hash a trusted document is named by, as the manifests write it. */
export const documentIdOf = (document: string) => `sha256:${createHash('sha256').update(document).digest('hex')}`;

/**
 * Only trusted documents run (GRAPHQL_TRUSTED_DOCUMENTS): the operator's manifest holds `documents` (none by
 * default), and Ramp adds the console's own, which it sends by hash. Nothing else runs.
 */
export function onlyTrustedDocuments(documents: readonly string[] = []): Record<string, string> {
  const manifest = join(mkdtempSync(join(tmpdir(), 'ramp-trusted-')), 'persisted-documents.json');
  writeFileSync(manifest, JSON.stringify(Object.fromEntries(documents.map((document) => [documentIdOf(document), document]))));
  return { GRAPHQL_TRUSTED_DOCUMENTS: manifest };
}

/** A client whose GraphQL operations go by hash alone, as a frontend limited to trusted documents sends them. */
export const byHash = (client: ApiClient): ApiClient => ({
  ...client,
  graphql: (query, variables) => client.request('POST', '/graphql', { body: { documentId: documentIdOf(query), variables } }),
});
