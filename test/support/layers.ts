import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

/** One import of ours: from a file to a file, both relative to src/ (`modules/customers/service.ts`). */
export interface Import {
  from: string;
  to: string;
}

/** Every import between the files under `root` (static, `export … from`, side-effect and dynamic `import()`). */
export function importGraph(root: string): Import[] {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    );
  return files(root).flatMap((file) => importsOf(relative(root, file), readFileSync(file, 'utf8')));
}

/**
 * The imports one source file makes: relative ones resolved to files (`./x.js` is `x.ts`), packages
 * as `npm:<name>` (`npm:viem`, `npm:@noble/curves`), so the rules can say who may speak to a chain library.
 */
export function importsOf(file: string, source: string): Import[] {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles.map(({ fileName }) => ({
    from: file,
    to: fileName.startsWith('.') ? normalize(join(dirname(file), fileName)).replace(/\.js$/, '.ts') : `npm:${packageOf(fileName)}`,
  }));
}

/** `viem/accounts` → `viem`, `@noble/curves/secp256k1` → `@noble/curves`, `node:fs` → `node:fs`. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** A module's folder name for a file under modules/, else null. */
const moduleOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1] ?? null;

/**
 * What another module may not reach into. Modules talk to each other through services: a module may
 * import another's `service.ts` (its use cases, and the types they take and return, entity types
 * included, re-exported there), its inputs, and the shapes its faces share (Pothos refs in
 * `graphql.ts`, REST bodies, presenters, stored-JSON records): the schema is one graph and the REST
 * contract one document. It may not import what is the other module's alone: its entities (its
 * tables: read them through its service), its query file (`queries.ts`), its routes
 * (`rest.ts`), its wiring (`feature.ts`) and its jobs.
 */
const MODULE_INTERNALS = /^modules\/[^/]+\/(entities|queries|rest|feature|jobs)\.ts$/;

/** The REST face: src/rest/ (its server, errors, OpenAPI) and the routes and bodies of every module. */
const REST = /^(rest\/|modules\/[^/]+\/rest[^/]*\.ts$)/;

/** The GraphQL face: src/graphql/ (its server, schema building blocks and guards) and the GraphQL files of every module. */
const GRAPHQL = /^(graphql\/|modules\/[^/]+\/(graphql\.ts$|graphql\/))/;

/**
 * The chain libraries (viem, and the curve and key libraries under it): only the EVM adapter
 * (rails/evm/) speaks to them, so a use case cannot reach a chain but through the rails port.
 */
const CHAIN_LIBRARIES = /^npm:(viem|@noble\/curves|@scure\/[^/]+)$/;

/**
 * The packages the domain may use: pure computation (decimals, schemas, hashes, encodings, country and IBAN tables,
 * `isIP`). No file, socket, database, server or clock of the world: the domain's rules run the same anywhere.
 */
const DOMAIN_MAY_USE = /^npm:(decimal\.js|zod|@noble\/hashes|bs58|i18n-iso-countries|ibantools|node:crypto|node:net)$/;

/** What rails/ may import of ours: the domain, the plumbing, itself, the configuration's types and the operator's refusal. */
const RAILS_MAY_IMPORT = /^(domain\/|platform\/|rails\/|config\.ts$|refusal\.ts$)/;

/** What the configuration may import of ours: the domain's rules and the operator's refusal. It is read before anything runs. */
const CONFIG_MAY_IMPORT = /^(domain\/|refusal\.ts$)/;

/**
 * What platform/security/ may import of ours: the domain, the configuration, itself and the plumbing under it (the
 * database, logs and metrics, the process). Not the use cases, the reads, the outbox or the door: a key check or a
 * seal is the same whichever of those calls it.
 */
const SECURITY_MAY_IMPORT = /^(domain\/|config\.ts$|refusal\.ts$|platform\/(security|db|observability|runtime)\/)/;

/** What a feature is (feature.ts) may import of ours: the plumbing's types and the configuration, nothing of a feature or a face. */
const FEATURE_MAY_IMPORT = /^(domain\/|platform\/|config\.ts$)/;

/** The composition root: it knows every feature, so no layer below it may import it. */
const COMPOSITION_ROOT = /^(app|main|features|services)\.ts$/;

/**
 * The layers of Ramp (each rule is one line of the design's "Dependencies point inward"; docs/engineering/architecture.md
 * draws them):
 * - domain/ is pure: it imports nothing of ours outside domain/, and of packages only pure computation (DOMAIN_MAY_USE).
 * - config.ts reads the environment with the domain's rules: it imports no plumbing, rails or feature.
 * - platform/ is plumbing that knows no feature (modules/, feature.ts), no face (rest/, graphql/) and not the
 *   composition root (`Services`, `features`); platform/security/ stands below the use cases and the door too.
 * - feature.ts, the contract between the composition root and the modules, knows no module and no face.
 * - rest/ and graphql/ are the two faces: each assembles what the features register, maps errors and shapes its own
 *   way, and knows neither the other face, nor a feature, nor the composition root.
 * - modules/ talk to each other only through services (MODULE_INTERNALS above).
 * - custody imports nothing of transfers: it names the calls it makes (deposits/calls.ts, payouts/calls.ts) and
 *   transfers implement them, so custody never reads a transfer's table or column, not even as a type.
 * - rails/ (the ports to the money world) imports only domain/, platform/ and itself, and only
 *   rails/evm/ imports a chain library (CHAIN_LIBRARIES above).
 * `allowed` lists single imports the rules would refuse, each with the reason it stays; an entry that
 * no longer matches an import is reported too, so the list cannot go stale.
 */
export function layerViolations(graph: readonly Import[], allowed: readonly (Import & { why: string })[] = []): string[] {
  const broken = graph.filter(({ from, to }) => !allowed.some((a) => a.from === from && a.to === to) && ruleBroken(from, to));
  const stale = allowed.filter((a) => !graph.some((i) => i.from === a.from && i.to === a.to));
  return [...broken.map(({ from, to }) => `${from} → ${to}: ${ruleBroken(from, to)}`), ...stale.map((a) => `${a.from} → ${a.to}: allowed but not imported`)];
}

function ruleBroken(from: string, to: string): string | null {
  if (to.startsWith('npm:')) {
    if (CHAIN_LIBRARIES.test(to) && !from.startsWith('rails/evm/')) return 'only rails/evm/ speaks to a chain library';
    if (from.startsWith('domain/') && !DOMAIN_MAY_USE.test(to)) return 'domain uses only packages of pure computation';
    return null;
  }
  if (from.startsWith('domain/') && !to.startsWith('domain/')) return 'domain imports nothing of ours outside domain/';
  if (from.startsWith('rails/') && !RAILS_MAY_IMPORT.test(to)) return 'rails imports only domain/, platform/ and itself';
  if (from === 'config.ts' && !CONFIG_MAY_IMPORT.test(to)) return 'config imports only domain/ and refusal.ts';
  if (from === 'feature.ts' && !FEATURE_MAY_IMPORT.test(to)) return 'what a feature is knows no feature and no face';
  if (from.startsWith('platform/')) {
    if (to.startsWith('modules/') || to === 'feature.ts') return 'platform knows no feature';
    if (REST.test(to) || GRAPHQL.test(to)) return 'platform knows no face';
    if (COMPOSITION_ROOT.test(to)) return 'platform knows no Services or features';
    if (from.startsWith('platform/security/') && !SECURITY_MAY_IMPORT.test(to)) return 'security imports only domain/, config and the plumbing below it';
  }
  if (from.startsWith('graphql/')) {
    if (REST.test(to)) return 'graphql knows no REST';
    if (to.startsWith('modules/')) return 'graphql knows no feature (features register their types)';
    if (COMPOSITION_ROOT.test(to)) return 'graphql knows no Services or features';
  }
  if (from.startsWith('rest/')) {
    if (GRAPHQL.test(to)) return 'rest knows no GraphQL';
    if (to.startsWith('modules/')) return 'rest knows no feature (features register their routes)';
    if (COMPOSITION_ROOT.test(to)) return 'rest knows no Services or features';
  }
  const [source, target] = [moduleOf(from), moduleOf(to)];
  if (source === 'custody' && target === 'transfers') return 'custody talks to transfers only through the calls it names';
  if (source && target && source !== target && MODULE_INTERNALS.test(to)) return `modules talk through services: ${to} is ${target}'s own`;
  return null;
}

/**
 * Circles between modules: groups of modules that reach one another through their imports (Tarjan's strongly
 * connected components over the module graph), each as its sorted module names joined by ` ⇄ `. A circle means
 * neither side can be read, tested or moved without the other; modules that must talk both ways do it through
 * named calls one of them declares and the other implements, wired by the composition root.
 */
export const moduleCycles = (graph: readonly Import[]): string[] => circlesOf(graph, moduleOf);

/**
 * Circles between files, `import type` included: a file that needs another's type while that one needs it back is
 * one piece split in two. Packages are not files.
 */
export const fileCycles = (graph: readonly Import[]): string[] => circlesOf(graph, (file) => (file.startsWith('npm:') ? null : file));

/** Tarjan's strongly connected components of the graph whose nodes `nodeOf` names (null: not a node). */
function circlesOf(graph: readonly Import[], nodeOf: (file: string) => string | null): string[] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of graph) {
    const [source, target] = [nodeOf(from), nodeOf(to)];
    if (!source || !target || source === target) continue;
    edges.set(source, (edges.get(source) ?? new Set()).add(target));
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      group.push(member);
      if (member === node) break;
    }
    if (group.length > 1) circles.push(group.sort().join(' ⇄ '));
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return circles.sort();
}
