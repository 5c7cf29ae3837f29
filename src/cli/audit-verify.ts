// First, before any dependency loads: refuses a Node too old for them in one sentence.
import '../platform/runtime/supported-node.js';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { entities } from '../features.js';
import { type ChainReport, type ExpectedHead, verifyAuditChain } from '../modules/audit/chain.js';
import { openDatabase } from '../platform/db/database.js';
import { Refusal, exitIfRefused } from '../refusal.js';

const USAGE = `usage: npm run audit:verify -- [--grace-seconds <n>] [--expect <partner>/<environment>/<position>/<hash> …]`;
/** Beyond the sealing delay, how long a row may wait for the sealing job (which runs every few seconds) before it counts as skipped. */
const SEALING_GRACE_SECONDS = 900;

const say = (line: string) => process.stdout.write(`${line}\n`);

function expectedHead(value: string): ExpectedHead {
  const [partnerId, environment, position, hash] = value.split('/');
  if (!partnerId || !environment || !/^[0-9]+$/.test(position ?? '') || !/^[0-9a-f]{64}$/.test(hash ?? '')) {
    throw new Refusal(`--expect ${value}: give a head as printed by an earlier run, <partner>/<environment>/<position>/<hash>.`);
  }
  return { partnerId, environment, position: Number(position), hash: hash! };
}

function print(report: ChainReport) {
  const chains = report.heads.length === 1 ? 'chain' : 'chains';
  say(`${report.links} links in ${report.heads.length} ${chains}. Heads (record them elsewhere; pass them back with --expect to catch a rewrite):`);
  for (const head of report.heads) say(`  ${head.partnerId}/${head.environment}/${head.position}/${head.hash}`);
  if (report.findings.length === 0) {
    say('The audit log verifies: every link holds, every row is the row it linked, no row is left unlinked.');
    return;
  }
  say(`${report.findings.length} findings:`);
  for (const f of report.findings) {
    const where = f.position === null ? 'unlinked' : `position ${f.position}`;
    say(`  ${f.kind}  ${f.partnerId}/${f.environment} ${where}  row ${f.auditEventId ?? '-'}: ${f.detail}`);
  }
}

/**
 * Verifies the audit log's hash chains on the server's database (DATABASE_URL, else the embedded PGlite under
 * DATA_DIR): exit 0 when it verifies, 1 on any finding, 2 on bad arguments.
 */
async function main(argv: string[]): Promise<number> {
  let values: { 'grace-seconds'?: string; expect?: string[] };
  try {
    ({ values } = parseArgs({ args: argv, options: { 'grace-seconds': { type: 'string' }, expect: { type: 'string', multiple: true } } }));
  } catch {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const grace = values['grace-seconds'];
  if (grace !== undefined && !/^[0-9]+$/.test(grace)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const expected = (values.expect ?? []).map(expectedHead);
  const db = await openDatabase({ ...config, entities, debug: false });
  try {
    const graceSeconds = grace === undefined ? config.AUDIT_SEAL_DELAY_SECONDS + SEALING_GRACE_SECONDS : Number(grace);
    const report = await verifyAuditChain(db.fork(), { graceSeconds, expected });
    print(report);
    return report.findings.length === 0 ? 0 : 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main(process.argv.slice(2)).catch(exitIfRefused);
