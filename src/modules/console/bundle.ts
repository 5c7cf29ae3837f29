import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';

/** One file of the built console, ready to send. */
export interface ConsoleAsset {
  contentType: string;
  body: Buffer;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** console/ beside src/ (from the sources) or beside dist/ (from a `npm run build` output). */
const consoleDir = () =>
  ['../../../console/', '../../../../console/'].map((path) => fileURLToPath(new URL(path, import.meta.url))).find((dir) => existsSync(`${dir}index.html`)) ??
  fileURLToPath(new URL('../../../console/', import.meta.url));

const newestSourceTime = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const path = `${dir}/${entry.name}`;
    return Math.max(newest, entry.isDirectory() ? newestSourceTime(path) : statSync(path).mtimeMs);
  }, 0);

const modified = (path: string) => (existsSync(path) ? statSync(path).mtimeMs : 0);

/** What the typed operations are generated from: the operations, their codegen config and the committed schema. */
const typesInputsTime = (dir: string) => Math.max(newestSourceTime(`${dir}src/operations`), modified(`${dir}codegen.yml`), modified(`${dir}../schema.graphql`));

/**
 * The console's trusted documents, beside its bundle: graphql-codegen's persisted-documents shape, `{ "sha256:<hex>":
 * document }`, what the console feature registers with the GraphQL server (feature.ts).
 */
const TRUSTED_DOCUMENTS_FILE = 'trusted-documents.json';

/** Whether console/dist is missing or older than a source file, index.html or schema.graphql. */
export function bundleIsStale(dir = consoleDir()): boolean {
  const built = `${dir}dist/app.js`;
  if (!existsSync(built) || !existsSync(`${dir}dist/app.css`) || !existsSync(`${dir}dist/${TRUSTED_DOCUMENTS_FILE}`)) return true;
  // An image that ships only the built console has nothing to compare with.
  if (!existsSync(`${dir}src`)) return false;
  const sources = Math.max(newestSourceTime(`${dir}src`), modified(`${dir}index.html`), typesInputsTime(dir));
  return statSync(built).mtimeMs < sources;
}

/**
 * console/src/gql (not committed, like the examples' client): graphql-codegen's client preset over
 * schema.graphql and console/src/operations, about two seconds, only when an input changed.
 */
export async function generateOperationTypes(dir = consoleDir()): Promise<void> {
  if (modified(`${dir}src/gql/graphql.ts`) >= typesInputsTime(dir)) return;
  const { generate, loadCodegenConfig } = await import('@graphql-codegen/cli');
  const { config } = await loadCodegenConfig({ configFilePath: `${dir}codegen.yml` });
  await generate({ ...config, cwd: fileURLToPath(new URL('..', `file://${dir}`)), silent: true }, true);
}

type Esbuild = typeof import('esbuild');

/**
 * Every operation of the console as the console sends it: urql adds `__typename` to each selection set of a query
 * or a mutation (its document cache reads the types an answer holds) and prints the result; a subscription goes as
 * written. The texts come from the console's own documents (src/gql) run through the same urql code, bundled by
 * esbuild as the console is and run in a fresh context, so the hashes match what the browser sends, byte for byte.
 */
async function operationTexts(esbuild: Esbuild, dir: string): Promise<string[]> {
  const entry = `
    import * as generated from './gql/graphql';
    import { createRequest, formatDocument, stringifyDocument } from '@urql/core';
    export const texts = Object.values(generated)
      .map((value) => ({ document: value, operation: value && value.kind === 'Document' && value.definitions.find((d) => d.kind === 'OperationDefinition') }))
      .filter(({ operation }) => operation)
      .map(({ document, operation }) => {
        const { query } = createRequest(document, {});
        return stringifyDocument(operation.operation === 'subscription' ? query : formatDocument(query));
      });`;
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: `${dir}src`, loader: 'ts' },
    bundle: true,
    format: 'iife',
    globalName: 'consoleOperations',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const texts = runInNewContext(`${result.outputFiles[0]!.text}; consoleOperations.texts`) as unknown;
  if (!Array.isArray(texts) || !texts.length) throw new Error('the console has no GraphQL operations to register');
  return texts as string[];
}

/** The trusted-documents manifest of these operation texts: the sha256 of each, hex, prefixed as codegen writes it. */
const manifestOf = (texts: readonly string[]): Record<string, string> =>
  Object.fromEntries(texts.map((text) => [`sha256:${createHash('sha256').update(text).digest('hex')}`, text]));

/** Writes `contents` to a temporary name and renames it, so a Ramp building at the same moment never reads half a file. */
function writeWhole(path: string, contents: string | Uint8Array) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/**
 * Bundles console/src with esbuild (under a second) into console/dist, generating the operations' types first when
 * needed, and writes the console's trusted documents beside it. The bundle carries the same manifest, inverted
 * (document → hash), so the console sends each operation by its hash (console/src/trusted-documents.ts).
 */
export async function buildConsole(dir = consoleDir()): Promise<void> {
  await generateOperationTypes(dir);
  // esbuild and codegen are development dependencies: a production image ships a prebuilt console/dist instead.
  const esbuild = await import('esbuild');
  const manifest = manifestOf(await operationTexts(esbuild, dir));
  const idsByDocument = Object.fromEntries(Object.entries(manifest).map(([id, text]) => [text, id]));
  const result = await esbuild.build({
    entryPoints: { app: `${dir}src/main.tsx` },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: `${dir}dist`,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
    define: { CONSOLE_TRUSTED_DOCUMENTS: JSON.stringify(idsByDocument) },
  });
  mkdirSync(`${dir}dist`, { recursive: true });
  writeWhole(`${dir}dist/${TRUSTED_DOCUMENTS_FILE}`, `${JSON.stringify(manifest, null, 2)}\n`);
  for (const file of result.outputFiles) writeWhole(file.path, file.contents);
}

/** The console's trusted documents as built (TRUSTED_DOCUMENTS_FILE), by hash. */
export function readTrustedDocuments(dir = consoleDir()): Record<string, string> {
  return JSON.parse(readFileSync(`${dir}dist/${TRUSTED_DOCUMENTS_FILE}`, 'utf8')) as Record<string, string>;
}

/** One build of the console: its three files, keyed by their name under /console/, and the documents they send. */
export interface ConsoleBuild {
  files: Map<string, ConsoleAsset>;
  /** The trusted documents of this build, by hash (TRUSTED_DOCUMENTS_FILE). */
  documents: Readonly<Record<string, string>>;
}

/** The built console, building it first when stale. */
export async function consoleAssets(): Promise<ConsoleBuild> {
  const dir = consoleDir();
  if (bundleIsStale(dir)) await buildConsole(dir);
  const files: Array<[string, string]> = [
    ['', `${dir}index.html`],
    ['app.js', `${dir}dist/app.js`],
    ['app.css', `${dir}dist/app.css`],
  ];
  return {
    files: new Map(files.map(([name, path]) => [name, { contentType: CONTENT_TYPES[path.slice(path.lastIndexOf('.'))]!, body: readFileSync(path) }])),
    documents: readTrustedDocuments(dir),
  };
}

// `npm run console:build`: builds when stale (CI, a production image); `--force` always.
if (import.meta.url === `file://${process.argv[1]}`) {
  const build = process.argv.includes('--force') || bundleIsStale();
  (build ? buildConsole() : Promise.resolve()).then(
    () => process.stdout.write(`console bundle ${build ? 'built' : 'already up to date'} in ${consoleDir()}dist\n`),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
