/**
 * Imported first by every entry point, so it runs before any dependency loads: MikroORM 7 needs
 * Node 22.17 or newer. `npm start` and `npm run keys` run on the node@24 devDependency; this
 * catches a build started with an older system Node (`node dist/src/main.js`), with one sentence
 * instead of a failure deep inside a dependency.
 */
export const MINIMUM_NODE = '22.17.0';

/** Whether `version` (`process.versions.node`, no `v`) is at least MINIMUM_NODE. */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  const [minMajor = 0, minMinor = 0, minPatch = 0] = MINIMUM_NODE.split('.').map(Number);
  return major !== minMajor ? major > minMajor : minor !== minMinor ? minor > minMinor : patch >= minPatch;
}

if (!isSupportedNode(process.versions.node)) {
  process.stderr.write(
    `Ramp needs Node ${MINIMUM_NODE} or newer and this is Node ${process.versions.node}: run it through npm (npm start, npm run start:prod), which uses the node@24 devDependency, or install a newer Node.\n`,
  );
  process.exit(1);
}
