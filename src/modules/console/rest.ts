import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONSOLE_CONTENT_SECURITY_POLICY } from '../../platform/security/headers.js';
import { bundleIsStale, type ConsoleAsset, type ConsoleBuild, consoleAssets } from './bundle.js';

/**
 * The console's files, one set per process (every Ramp in it serves the same console/): a build in flight is
 * shared, so instances started together build once.
 */
let assets: Promise<ConsoleBuild> | undefined;
const load = (refresh: boolean) => {
  // An edited source rebuilds on the next page load (a stat of each source file, no more).
  if (!assets || (refresh && bundleIsStale())) {
    assets = consoleAssets();
    assets.catch(() => (assets = undefined));
  }
  return assets;
};

/**
 * The documents the console sends by hash, of the build it serves now (an edited source rebuilds on the next page
 * load, and its new documents count from then on); none where the console cannot be built.
 */
export const consoleDocuments = (): Promise<Readonly<Record<string, string>>> =>
  load(false).then(
    (build) => build.documents,
    () => ({}),
  );

/**
 * The sandbox console: a single page built from console/ (Preact + urql over /graphql). The bundle is built as
 * Ramp starts, in the background, when missing or older than its sources: starting is not delayed, and the first
 * page load no longer waits the ten seconds or so of codegen and esbuild. Where it cannot be built (an image
 * without the development dependencies and without console/dist), the page says so when asked for.
 */
export async function consoleRoutes(app: FastifyInstance) {
  void load(true).catch(() => {});

  const send = async (name: string, reply: FastifyReply) => {
    let files: Map<string, ConsoleAsset>;
    try {
      ({ files } = await load(name === ''));
    } catch (error) {
      reply.log.error({ err: error }, 'the console bundle could not be built');
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The console is not built and cannot be built here: run `npm run console:build` (it needs the development dependencies).');
    }
    const file = files.get(name)!;
    return reply.header('content-security-policy', CONSOLE_CONTENT_SECURITY_POLICY).type(file.contentType).compress(file.body);
  };

  app.get('/console', (_, reply) => send('', reply));
  app.get('/console/', (_, reply) => send('', reply));
  app.get('/console/app.js', (_, reply) => send('app.js', reply));
  app.get('/console/app.css', (_, reply) => send('app.css', reply));
}
