// First, before any dependency loads: refuses a Node too old for them in one sentence.
import '../platform/runtime/supported-node.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { ENVIRONMENTS, type Environment } from '../domain/environment.js';
import { NotFoundError, ValidationError } from '../domain/errors.js';
import { SCOPES } from '../domain/scopes.js';
import { entities } from '../features.js';
import { type ApiKeySummary, issueApiKey, listApiKeys, revokeApiKey } from '../modules/partners/api-keys.js';
import { ApiKeyGrant } from '../modules/partners/inputs.js';
import { parseInput } from '../domain/validation.js';
import { ensurePartner } from '../modules/partners/service.js';
import { openDatabase } from '../platform/db/database.js';
import { Refusal, exitIfRefused } from '../refusal.js';

const USAGE = `usage: npm run keys -- list [--partner <name>]
       npm run keys -- create --partner <name> [--environment sandbox|production]
                              [--scope ${SCOPES.join('|')} …] [--allow-ip <address or CIDR> …]
       npm run keys -- revoke <prefix-or-id>`;

type Command = (em: EntityManager) => Promise<number>;
const say = (line: string) => process.stdout.write(`${line}\n`);
/** A lookup that may find nothing: then the user is told, in one sentence, where to look. */
async function orRefuse<T>(lookup: Promise<T>, sentence: string): Promise<T> {
  try {
    return await lookup;
  } catch (error) {
    throw error instanceof NotFoundError ? new Refusal(sentence) : error;
  }
}

/** `2026-11-22 14:05 UTC`: keys' times are kept to the minute at best. */
const when = (date: Date | null) => (date ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '-');

function printTable(keys: ApiKeySummary[]) {
  const rows = [
    ['PREFIX', 'PARTNER', 'ENVIRONMENT', 'SCOPES', 'ALLOWED IPS', 'CREATED', 'LAST USED', 'REVOKED'],
    ...keys.map((k) => [
      k.prefix,
      k.partnerName,
      k.environment,
      k.scopes.join(','),
      k.allowedIps.length ? k.allowedIps.join(',') : 'any',
      when(k.createdAt),
      k.lastUsedAt ? when(k.lastUsedAt) : 'never',
      when(k.revokedAt),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const aligned = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  for (const row of rows) say(aligned(row).trimEnd());
}

/** Prefixes, never secrets: a key is shown once, when it is created, and stored only hashed. */
const list =
  (partner: string | undefined): Command =>
  async (em) => {
    const keys = await orRefuse(listApiKeys(em, { partner }), `No partner is named "${partner}"; npm run keys -- list shows every partner's keys.`);
    if (keys.length) printTable(keys);
    else say('No API keys yet: npm run keys -- create --partner <name>');
    return 0;
  };

/** A refused scope or range, in one sentence per field. */
const refusalOf = (error: ValidationError) =>
  new Refusal(error.fieldErrors.map((e) => `${e.pointer.startsWith('/scopes') ? '--scope' : '--allow-ip'} ${e.detail}`).join('; '));

/**
 * Creates the partner if no partner has that name; the key is alone on the last line (so scripts can
 * `tail -n1`). No --scope: every scope; no --allow-ip: from anywhere.
 */
const create =
  (partnerName: string, environment: Environment, grant: ApiKeyGrant): Command =>
  async (em) => {
    // Checked first, so a refused grant says nothing of a partner it would have created.
    try {
      parseInput(ApiKeyGrant, grant);
    } catch (error) {
      throw error instanceof ValidationError ? refusalOf(error) : error;
    }
    const issue = () =>
      em.fork().transactional(async (tx) => {
        const { partner, created } = await ensurePartner(tx, partnerName);
        say(`${created ? 'Created' : 'Found'} partner "${partner.name}" (${partner.id})`);
        return issueApiKey(tx, partner, environment, grant, 'cli');
      });
    // Another command created the same new partner between our look and our insert: it exists now, so look again.
    const raced = (error: unknown) => error instanceof UniqueConstraintViolationException;
    const key = await issue().catch((error) => {
      if (!raced(error)) throw error;
      return issue().catch((again) => {
        if (!raced(again)) throw again;
        throw new Refusal(`Another command was creating partner "${partnerName}" at the same moment; run this command again to add the key.`);
      });
    });
    const scopes = grant.scopes?.join(', ') ?? 'every scope';
    const from = grant.allowedIps?.length ? `from ${grant.allowedIps.join(', ')} only` : 'from anywhere';
    say(`New ${environment} API key (${scopes}; ${from}), shown once, store it now:\n${key}`);
    return 0;
  };

const revoke =
  (prefixOrId: string): Command =>
  async (em) => {
    const { key, alreadyRevoked } = await orRefuse(
      revokeApiKey(em, prefixOrId, undefined, 'cli'),
      `No API key has the prefix or id "${prefixOrId}"; npm run keys -- list shows the prefixes.`,
    );
    const which = `${key.prefix} (${key.environment} key of "${key.partnerName}")`;
    if (alreadyRevoked) say(`${which} was already revoked on ${when(key.revokedAt)}.`);
    else say(`Revoked ${which}: every instance refuses it from now on and closes its open subscriptions within seconds.`);
    return 0;
  };

/** The command the arguments ask for, or null when they ask for none (usage, exit 2). */
function commandOf(argv: string[]): Command | null {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      partner: { type: 'string' },
      environment: { type: 'string', default: 'sandbox' },
      scope: { type: 'string', multiple: true },
      'allow-ip': { type: 'string', multiple: true },
    },
  });
  const [verb, ...rest] = positionals;
  const partner = values.partner?.trim();
  const environment = values.environment as Environment;
  if (verb === 'list' && rest.length === 0) return list(partner || undefined);
  const grant = { scopes: values.scope as ApiKeyGrant['scopes'], allowedIps: values['allow-ip'] };
  if (verb === 'create' && rest.length === 0 && partner && ENVIRONMENTS.includes(environment)) return create(partner, environment, grant);
  if (verb === 'revoke' && rest.length === 1 && rest[0]!.trim()) return revoke(rest[0]!.trim());
  return null;
}

/**
 * Lists, creates and revokes API keys on the same database as the server: DATABASE_URL when set,
 * else the embedded PGlite under DATA_DIR. Refusals (the embedded database in use, an unknown key)
 * are one sentence on stderr and exit 1; bad arguments print the usage and exit 2.
 */
async function main(argv: string[]): Promise<number> {
  let command: Command | null;
  try {
    command = commandOf(argv);
  } catch {
    command = null; // an unknown option or a missing value
  }
  if (!command) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const db = await openDatabase({ ...loadConfig(), entities, debug: false });
  try {
    return await command(db.fork());
  } finally {
    await db.close();
  }
}

process.exitCode = await main(process.argv.slice(2)).catch(exitIfRefused);
