import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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

/** Whether console/dist is missing or older than a source file, index.html or schema.graphql. */
export function bundleIsStale(dir = consoleDir()): boolean {
  const built = `${dir}dist/app.js`;
  if (!existsSync(built) || !existsSync(`${dir}dist/app.css`)) return true;
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

/**
 * Bundles console/src with esbuild (under a second) into console/dist, generating the operations'
 * types first when needed. Each file is written to a
 * temporary name and renamed, so a second Ramp building at the same moment never serves half a file.
 */
export async function buildConsole(dir = consoleDir()): Promise<void> {
  await generateOperationTypes(dir);
  // esbuild and codegen are development dependencies: a production image ships a prebuilt console/dist instead.
  const esbuild = await import('esbuild');
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
  });
  mkdirSync(`${dir}dist`, { recursive: true });
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
}

/** The console's three files (building them first when stale), keyed by their name under /console/. */
export async function consoleAssets(): Promise<Map<string, ConsoleAsset>> {
  const dir = consoleDir();
  if (bundleIsStale(dir)) await buildConsole(dir);
  const files: Array<[string, string]> = [
    ['', `${dir}index.html`],
    ['app.js', `${dir}dist/app.js`],
    ['app.css', `${dir}dist/app.css`],
  ];
  return new Map(files.map(([name, path]) => [name, { contentType: CONTENT_TYPES[path.slice(path.lastIndexOf('.'))]!, body: readFileSync(path) }]));
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
