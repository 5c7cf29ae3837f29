// First, before any dependency loads: refuses a Node too old for them in one sentence.
import '../platform/runtime/supported-node.js';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { loadConfig } from '../config.js';
import { entities } from '../features.js';
import type { BankReconciliation } from '../modules/bank-payments/entities.js';
import { entryLine, latestReconciliations, reconcileFile } from '../modules/bank-payments/operator.js';
import { openDatabase } from '../platform/db/database.js';
import { Refusal, exitIfRefused } from '../refusal.js';
import { readMessage } from '../rails/bank/iso20022/bank.js';
import { BankFileRefused } from '../rails/port.js';
import { bankArguments } from './bank-arguments.js';

const USAGE = 'usage: npm run bank:reconcile -- [--environment sandbox|production] [--file <camt.053.xml>] [--limit <n>]';
const say = (line: string) => process.stdout.write(`${line}\n`);

function print(reconciliation: BankReconciliation) {
  const { matched, unmatched, unexpected, missing } = reconciliation;
  const days = `${reconciliation.fromDate ?? '?'} … ${reconciliation.toDate ?? '?'}`;
  say(
    `Statement ${reconciliation.statementId} of ${reconciliation.account ?? 'an unnamed account'} (${days}), ${reconciliation.fileName}: ` +
      `${matched} matched, ${unmatched.length} unmatched, ${unexpected.length} unexpected, ${missing.length} missing`,
  );
  for (const [kind, entries] of [
    ['unmatched', unmatched],
    ['unexpected', unexpected],
    ['missing', missing],
  ] as const) {
    for (const entry of entries) say(`  ${entryLine(kind, entry)}`);
  }
}

/**
 * Reconciles a camt.053 statement against the ledger (`--file`, recorded once as the inbox reader records each it
 * reads), or prints the latest statements' reconciliations: exit 0 when every entry matched, 1 when any did not,
 * 2 on bad arguments.
 */
async function main(argv: string[]): Promise<number> {
  const args = bankArguments(argv, USAGE, 5, true);
  if (!args) return 2;
  const { environment, file } = args;
  let message: ReturnType<typeof readMessage> | null = null;
  if (file) {
    try {
      message = readMessage(await readFile(file, 'utf8'));
    } catch (error) {
      if (error instanceof BankFileRefused) throw new Refusal(`${file} is refused: ${error.reason}`);
      throw error;
    }
  }
  const db = await openDatabase({ ...loadConfig(), entities, debug: false });
  try {
    const reconciliations = message
      ? await reconcileFile(db.fork(), environment, message, basename(file!)).catch((error) => {
          throw error instanceof BankFileRefused ? new Refusal(error.reason) : error;
        })
      : await latestReconciliations(db.fork(), environment, args.limit);
    if (reconciliations.length === 0) say(`No ${environment} statement reconciled yet.`);
    for (const reconciliation of reconciliations) print(reconciliation);
    const clean = reconciliations.every((r) => r.unmatched.length + r.unexpected.length + r.missing.length === 0);
    return clean ? 0 : 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main(process.argv.slice(2)).catch(exitIfRefused);
