import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { ENVIRONMENTS, type Environment } from '../domain/environment.js';
import { ensurePartner, issueApiKey } from '../modules/partners/service.js';
import { openDatabase } from '../platform/db.js';
import { entities } from '../features.js';

const USAGE = 'usage: npm run keys -- create --partner <name> --environment <sandbox|production>';

/**
 * Creates the partner if no partner has that name, adds a new API key for it and prints the
 * key alone on the last line (so scripts can `tail -n1`). Uses the same database as the server:
 * DATABASE_URL when set, else the embedded PGlite under DATA_DIR.
 */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { partner: { type: 'string' }, environment: { type: 'string', default: 'sandbox' } },
  });
  const environment = values.environment as Environment;
  if (positionals[0] !== 'create' || !values.partner?.trim() || !ENVIRONMENTS.includes(environment)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const db = await openDatabase({ ...loadConfig(), entities, debug: false });
  try {
    const key = await db.fork().transactional(async (em) => {
      const { partner, created } = await ensurePartner(em, values.partner!.trim());
      process.stdout.write(`${created ? 'Created' : 'Found'} partner "${partner.name}" (${partner.id})\n`);
      return issueApiKey(em, partner, environment);
    });
    process.stdout.write(`New ${environment} API key (shown once, store it now):\n${key}\n`);
    return 0;
  } finally {
    await db.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
