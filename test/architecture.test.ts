import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Import, fileCycles, importGraph, importsOf, layerViolations, moduleCycles } from './support/layers.js';
import { ADVISORY_LOCKS } from '../src/platform/db/locks.js';
import { startRamp, type TestRamp } from './support/ramp.js';
import { createCustomer, onrampQuoteBody, wallet } from './support/data/transfers.js';

/** Every source file under src/, by its path relative to src/, with its text. */
const sources = (dir = 'src'): [string, string][] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry): [string, string][] => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [[path.slice('src/'.length), readFileSync(path, 'utf8')]] : [];
  });
const filesMatching = (pattern: RegExp) =>
  sources()
    .filter(([, text]) => pattern.test(text))
    .map(([file]) => file);

/**
 * The imports the layer rules refuse that stay, each with its reason (support/layers.ts states the
 * rules). One entry that matches no import fails the test, so this list only shrinks.
 */
const ALLOWED: (Import & { why: string })[] = [
  // A page of transfers joins its customer in the same statement (one round trip; docs/engineering/performance.md).
  { from: 'modules/transfers/queries.ts', to: 'modules/customers/entities.ts', why: 'joins the customers table in a transfer page' },
  { from: 'modules/transfers/queries.ts', to: 'modules/customers/queries.ts', why: 'the joined customer has the row type of a customer read' },
];

describe('the layers of src/ (support/layers.ts)', () => {
  it('holds every rule in src/', () => {
    expect(layerViolations(importGraph('src'), ALLOWED)).toEqual([]);
  });

  it('finds a broken rule of each kind in an import graph that breaks them all', () => {
    // Each line breaks one rule; the rule's answer stands beside it.
    const broken: [Import, string][] = [
      [{ from: 'domain/money.ts', to: 'platform/db/database.ts' }, 'domain imports nothing of ours outside domain/'],
      [{ from: 'domain/money.ts', to: 'npm:pg' }, 'domain uses only packages of pure computation'],
      [{ from: 'domain/ledger.ts', to: 'npm:node:fs' }, 'domain uses only packages of pure computation'],
      [{ from: 'platform/http/admission.ts', to: 'modules/customers/service.ts' }, 'platform knows no feature'],
      [{ from: 'platform/db/database.ts', to: 'feature.ts' }, 'platform knows no feature'],
      [{ from: 'platform/http/admission.ts', to: 'graphql/server.ts' }, 'platform knows no face'],
      [{ from: 'platform/http/admission.ts', to: 'rest/http-errors.ts' }, 'platform knows no face'],
      [{ from: 'platform/use-cases/scope.ts', to: 'modules/customers/graphql.ts' }, 'platform knows no feature'],
      [{ from: 'platform/reads/queries.ts', to: 'services.ts' }, 'platform knows no Services or features'],
      [{ from: 'platform/security/auth.ts', to: 'features.ts' }, 'platform knows no Services or features'],
      [{ from: 'platform/security/auth.ts', to: 'rest/server.ts' }, 'platform knows no face'],
      [{ from: 'platform/security/auth.ts', to: 'platform/use-cases/scope.ts' }, 'security imports only domain/, config and the plumbing below it'],
      [{ from: 'platform/security/audit.ts', to: 'platform/messaging/outbox.ts' }, 'security imports only domain/, config and the plumbing below it'],
      [{ from: 'feature.ts', to: 'modules/events/service.ts' }, 'what a feature is knows no feature and no face'],
      [{ from: 'feature.ts', to: 'graphql/builder.ts' }, 'what a feature is knows no feature and no face'],
      [{ from: 'graphql/server.ts', to: 'rest/http-errors.ts' }, 'graphql knows no REST'],
      [{ from: 'graphql/types/errors.ts', to: 'rest/openapi/errors.ts' }, 'graphql knows no REST'],
      [{ from: 'graphql/types/node.ts', to: 'modules/customers/rest-bodies.ts' }, 'graphql knows no REST'],
      [{ from: 'graphql/guards/cost.ts', to: 'modules/customers/service.ts' }, 'graphql knows no feature (features register their types)'],
      [{ from: 'graphql/schema.ts', to: 'features.ts' }, 'graphql knows no Services or features'],
      [{ from: 'graphql/context.ts', to: 'services.ts' }, 'graphql knows no Services or features'],
      [{ from: 'rest/server.ts', to: 'graphql/server.ts' }, 'rest knows no GraphQL'],
      [{ from: 'rest/routes.ts', to: 'modules/transfers/graphql/types.ts' }, 'rest knows no GraphQL'],
      [{ from: 'rest/openapi/document.ts', to: 'modules/customers/rest.ts' }, 'rest knows no feature (features register their routes)'],
      [{ from: 'rest/server.ts', to: 'services.ts' }, 'rest knows no Services or features'],
      [
        { from: 'modules/events/subjects.ts', to: 'modules/customers/entities.ts' },
        "modules talk through services: modules/customers/entities.ts is customers's own",
      ],
      [
        { from: 'modules/transfers/service.ts', to: 'modules/customers/queries.ts' },
        "modules talk through services: modules/customers/queries.ts is customers's own",
      ],
      [
        { from: 'modules/transfers/queries.ts', to: 'modules/customers/queries.ts' },
        "modules talk through services: modules/customers/queries.ts is customers's own",
      ],
      [{ from: 'modules/webhooks/service.ts', to: 'modules/events/rest.ts' }, "modules talk through services: modules/events/rest.ts is events's own"],
      [{ from: 'modules/webhooks/service.ts', to: 'modules/events/feature.ts' }, "modules talk through services: modules/events/feature.ts is events's own"],
      [{ from: 'modules/transfers/ramps/offramp.ts', to: 'npm:viem' }, 'only rails/evm/ speaks to a chain library'],
      [{ from: 'rails/registry.ts', to: 'npm:@noble/curves' }, 'only rails/evm/ speaks to a chain library'],
      [{ from: 'config.ts', to: 'npm:@scure/bip39' }, 'only rails/evm/ speaks to a chain library'],
      [{ from: 'rails/registry.ts', to: 'modules/transfers/service.ts' }, 'rails imports only domain/, platform/ and itself'],
      [{ from: 'rails/evm/chain.ts', to: 'graphql/builder.ts' }, 'rails imports only domain/, platform/ and itself'],
      [{ from: 'config.ts', to: 'platform/security/client-address.ts' }, 'config imports only domain/ and refusal.ts'],
      [{ from: 'config.ts', to: 'rails/evm/hd.ts' }, 'config imports only domain/ and refusal.ts'],
      // Even a type-only import of transfers' service (its table types were re-exported there once).
      [{ from: 'modules/custody/deposits/watched.ts', to: 'modules/transfers/service.ts' }, 'custody talks to transfers only through the calls it names'],
      [{ from: 'modules/custody/sweeps.ts', to: 'modules/transfers/entities.ts' }, 'custody talks to transfers only through the calls it names'],
    ];
    const found = layerViolations(broken.map(([i]) => i));
    expect(found.map((v) => v.slice(v.indexOf(': ') + 2))).toEqual(broken.map(([, rule]) => rule));
  });

  it('finds a broken rule in files on disk: a platform file that imports the REST face, a domain file that reads a file', () => {
    const root = mkdtempSync(join(tmpdir(), 'ramp-layers-'));
    try {
      const write = (file: string, text: string) => {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), text);
      };
      write('rest/http-errors.ts', 'export const BAD_REQUEST = 1;\n');
      write('platform/http/admission.ts', "import { BAD_REQUEST } from '../../rest/http-errors.js';\nexport const a = BAD_REQUEST;\n");
      write('domain/money.ts', "import { readFileSync } from 'node:fs';\nexport const b = readFileSync;\n");
      write('graphql/server.ts', "export { BAD_REQUEST } from '../rest/http-errors.js';\n");
      expect(layerViolations(importGraph(root)).sort()).toEqual([
        'domain/money.ts → npm:node:fs: domain uses only packages of pure computation',
        'graphql/server.ts → rest/http-errors.ts: graphql knows no REST',
        'platform/http/admission.ts → rest/http-errors.ts: platform knows no face',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('lets through what the rules allow', () => {
    const graph: Import[] = [
      { from: 'domain/pricing.ts', to: 'domain/money.ts' },
      { from: 'rest/server.ts', to: 'platform/security/auth.ts' },
      { from: 'graphql/server.ts', to: 'platform/security/auth.ts' },
      { from: 'modules/transfers/context.ts', to: 'modules/customers/service.ts' },
      { from: 'modules/events/graphql.ts', to: 'modules/transfers/graphql/types.ts' },
      { from: 'modules/customers/service.ts', to: 'modules/customers/entities.ts' },
      { from: 'app.ts', to: 'graphql/server.ts' },
      { from: 'rails/evm/chain.ts', to: 'npm:viem' },
      { from: 'rails/evm/hd.ts', to: 'npm:@noble/curves' },
      { from: 'rails/evm/hd.ts', to: 'npm:@scure/bip39' },
      { from: 'rails/registry.ts', to: 'config.ts' },
      { from: 'rails/registry.ts', to: 'refusal.ts' },
      { from: 'config.ts', to: 'refusal.ts' },
      { from: 'config.ts', to: 'domain/network-tokens.ts' },
      { from: 'rails/evm/chain.ts', to: 'domain/money.ts' },
      { from: 'domain/identifiers/chain.ts', to: 'npm:@noble/hashes' },
      { from: 'modules/transfers/ramps/offramp.ts', to: 'npm:zod' },
      { from: 'modules/transfers/calls/deposit.ts', to: 'modules/custody/deposits/calls.ts' },
      { from: 'domain/money.ts', to: 'npm:decimal.js' },
      { from: 'app.ts', to: 'rest/server.ts' },
      { from: 'rest/server.ts', to: 'platform/http/admission.ts' },
      { from: 'graphql/server.ts', to: 'platform/http/admission.ts' },
      { from: 'modules/customers/rest.ts', to: 'rest/openapi/contract.ts' },
      { from: 'modules/customers/graphql.ts', to: 'graphql/builder.ts' },
      { from: 'feature.ts', to: 'platform/runtime/jobs.ts' },
      { from: 'feature.ts', to: 'config.ts' },
      { from: 'platform/security/rate-limit.ts', to: 'platform/db/database.ts' },
      { from: 'platform/security/cost-budget.ts', to: 'platform/runtime/redis.ts' },
      { from: 'platform/use-cases/idempotency.ts', to: 'platform/security/audit.ts' },
    ];
    expect(layerViolations(graph)).toEqual([]);
  });

  it('reports an allowed import that is no longer made', () => {
    const allowed = [{ from: 'modules/a/service.ts', to: 'modules/b/entities.ts', why: 'gone' }];
    expect(layerViolations([], allowed)).toEqual(['modules/a/service.ts → modules/b/entities.ts: allowed but not imported']);
  });

  it('reads every kind of import from a source file: static, type-only, re-export, side effect, dynamic', () => {
    const source = [
      "import { Money } from '../domain/money.js';",
      "import type { Actor } from '../domain/environment.js';",
      "export { outboxHead } from './outbox.js';",
      "import './scalars.js';",
      "const later = () => import('../modules/customers/graphql.js');",
      "import { z } from 'zod';",
      "import { HDKey } from 'viem/accounts';",
      "import { secp256k1 } from '@noble/curves/secp256k1';",
    ].join('\n');
    expect(importsOf('platform/x.ts', source).map((i) => i.to)).toEqual([
      'domain/money.ts',
      'domain/environment.ts',
      'platform/outbox.ts',
      'platform/scalars.ts',
      'modules/customers/graphql.ts',
      'npm:zod',
      'npm:viem',
      'npm:@noble/curves',
    ]);
  });
});

/**
 * Circles between modules that stay, each with its reason; the list only shrinks (a circle closed fails the test
 * until its line is removed).
 */
const ALLOWED_CYCLES: { cycle: string; why: string }[] = [];

describe('modules without circles', () => {
  it('has no circle between modules but the listed ones', () => {
    expect(moduleCycles(importGraph('src'))).toEqual(ALLOWED_CYCLES.map((c) => c.cycle));
  });

  it('finds a circle through three modules, and none in a chain', () => {
    const circle: Import[] = [
      { from: 'modules/events/graphql.ts', to: 'modules/transfers/graphql/types.ts' },
      { from: 'modules/transfers/graphql/types.ts', to: 'modules/customers/service.ts' },
      { from: 'modules/customers/graphql.ts', to: 'modules/events/snapshots.ts' },
    ];
    expect(moduleCycles(circle)).toEqual(['customers ⇄ events ⇄ transfers']);
    expect(moduleCycles(circle.slice(0, 2))).toEqual([]);
  });
});

describe('files without circles', () => {
  it('has no circle between two files of src/, not even through a type', () => {
    expect(fileCycles(importGraph('src'))).toEqual([]);
  });

  it('finds a circle made of type imports', () => {
    const circle: Import[] = [
      { from: 'domain/environment.ts', to: 'domain/scopes.ts' },
      { from: 'domain/scopes.ts', to: 'domain/environment.ts' },
      { from: 'domain/scopes.ts', to: 'npm:zod' },
    ];
    expect(fileCycles(circle)).toEqual(['domain/environment.ts ⇄ domain/scopes.ts']);
    expect(fileCycles(circle.slice(1))).toEqual([]);
  });
});

describe('one name, one home', () => {
  it('takes every advisory lock with an id of platform/db/locks.ts, each id its own', () => {
    const taking = sources().filter(([file, text]) => file !== 'platform/db/locks.ts' && /pg_advisory/.test(text));
    expect(taking.filter(([, text]) => !text.includes('ADVISORY_LOCKS.')).map(([file]) => file)).toEqual([]);
    const ids = Object.values(ADVISORY_LOCKS);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads the head of the outbox in one function, outboxHead()', () => {
    expect(filesMatching(/max\(cursor\)/)).toEqual(['platform/messaging/outbox.ts']);
  });

  it('defines isUuid once, in domain/identifiers', () => {
    expect(filesMatching(/(const|function) isUuid\b/)).toEqual(['domain/identifiers/uuid.ts']);
  });

  it('names every service factory createXService', () => {
    const factories = sources().flatMap(([, text]) => [...text.matchAll(/export function (\w+Service)\(/g)].map((m) => m[1]!));
    expect(factories.length).toBeGreaterThanOrEqual(10);
    expect(factories.filter((name) => !/^create[A-Z]\w*Service$/.test(name))).toEqual([]);
  });

  it('opens a request use case through useCase alone: em.transactional only in jobs and at start; faces open none', () => {
    // What a module opens with em.transactional is no request's use case: a job's batch, a delivery attempt, the
    // demo partner at start. Shrinks only: a request use case calls useCase (platform/use-cases/use-case.ts), which claims
    // and stores its idempotency key in the same unit of work.
    const ownTransactions = [
      'modules/bank-accounts/jobs.ts',
      'modules/custody/deposits/watcher.ts',
      'modules/custody/deposits/window.ts',
      'modules/custody/payouts/send.ts',
      'modules/customers/data-keys.ts',
      'modules/customers/jobs.ts',
      'modules/kyb/jobs.ts',
      'modules/partners/service.ts',
      'modules/transfers/accounts/payout-account.ts',
      'modules/transfers/calls/bank-credit.ts',
      'modules/transfers/jobs.ts',
      'modules/webhooks/attempt.ts',
      'modules/webhooks/jobs.ts',
    ];
    expect(filesMatching(/\.transactional\(/).filter((file) => file.startsWith('modules/'))).toEqual(ownTransactions);
    // A face declares the request and calls the service: it opens no transaction and joins none into its own.
    const faces = sources().filter(([file]) => /(^|\/)(rest|graphql|mutations|idempotency)\.ts$/.test(file) && !file.startsWith('platform/'));
    expect(faces.length).toBeGreaterThan(20);
    expect(faces.filter(([, text]) => /\.transactional\(|\bunitOfWork\(|\buseCase\(/.test(text)).map(([file]) => file)).toEqual([]);
    expect(filesMatching(/joiningTransactions|runIdempotently/)).toEqual([]);
  });

  it('keeps the API-key store in partners/api-keys.ts, apart from the partner use cases', () => {
    expect(filesMatching(/export const apiKeyStore\b/)).toEqual(['modules/partners/api-keys.ts']);
    expect(readFileSync('src/modules/partners/service.ts', 'utf8')).not.toMatch(/\bApiKey\b/);
  });
});

describe('a house of small rooms', () => {
  /** The folders under `dir`, each with how many files it holds itself (its subfolders' files not counted). */
  /** What is built or installed, not written: never counted. */
  const MADE = new Set(['node_modules', 'dist', '.git']);
  const folders = (dir: string): [string, number][] => {
    const entries = readdirSync(dir, { withFileTypes: true });
    const own: [string, number] = [dir, entries.filter((e) => e.isFile()).length];
    return [own, ...entries.filter((e) => e.isDirectory() && !MADE.has(e.name)).flatMap((e) => folders(join(dir, e.name)))];
  };

  it('holds no more than 20 files in any folder of the repository, logs included, so a concern finds its folder at a glance', () => {
    const written = ['src', 'test', 'migrations', 'docs', 'bench', 'scripts', 'console', 'contracts', 'examples'];
    const crowded = written.flatMap((dir) => folders(dir)).filter(([, files]) => files > 20);
    expect(crowded).toEqual([]);
  });

  it('keeps no file in the root of src/platform/: each piece of plumbing lives in the folder of its concern', () => {
    expect(
      readdirSync('src/platform', { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => e.name),
    ).toEqual([]);
  });
});

describe('the composition root wires the features', () => {
  it('gives every feature one entry point that the composition root lists', () => {
    const listed = readFileSync('src/features.ts', 'utf8');
    const modules = readdirSync('src/modules', { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(modules.filter((m) => !listed.includes(`./modules/${m.name}/feature.js`)).map((m) => m.name)).toEqual([]);
  });
});

describe('one EntityManager and one caller per request, forked only when used', () => {
  let t: TestRamp;
  let forks = 0;
  let customerId: string;
  let transferId: string;
  beforeAll(async () => {
    t = await startRamp({ RATE_LIMIT_PER_MINUTE: '1000' });
    const fork = t.ramp.db.fork.bind(t.ramp.db);
    t.ramp.db.fork = () => {
      // Background work (the job runner, the webhook dispatcher, the events catch-up poll) forks its own on its own timers.
      if (!/[\\/](jobs|dispatcher|notifier)\.ts/.test(new Error().stack ?? '')) forks++;
      return fork();
    };
    const api = t.client(t.key);
    customerId = await createCustomer(api);
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    const created = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    transferId = created.body.id;
  });
  afterAll(() => t.close());

  it('forks none for a read that runs Kysely statements only, over GraphQL and REST', async () => {
    const api = t.client(t.key);
    const read = () => api.graphql('query ($id: ID!) { transfer(id: $id) { databaseId status amount customer { id } } }', { id: transferId });
    const readRest = () => api.get(`/v0/customers/${customerId}/onramp-transfer/${transferId}`);
    // The first read of a statement's shape builds it (platform/reads/queries.ts `preparedRead`), on a fork.
    await read();
    await readRest();
    forks = 0;
    const res = await read();
    expect(res.body.data?.transfer?.databaseId, JSON.stringify(res.body)).toBe(transferId);
    const rest = await readRest();
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(rest.body.id).toBe(transferId);
    expect(forks).toBe(0);
  });

  it('forks one EntityManager for a request that needs one, the rate limiter and authentication included', async () => {
    const api = t.client(t.key);
    forks = 0;
    // A MikroORM find (the partner's row): the request's fork, made once for all of its steps.
    const res = await api.get('/v1/partners/accountInfo');
    expect(res.status).toBe(200);
    expect(forks).toBe(1);
    forks = 0;
    const quote = await api.post(`/v0/customers/${customerId}/onramp-transfer/quote`, onrampQuoteBody());
    expect(quote.status).toBe(201);
    expect(forks).toBe(1);
  });
});
