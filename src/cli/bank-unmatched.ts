// First, before any dependency loads: refuses a Node too old for them in one sentence.
import '../platform/runtime/supported-node.js';
import { loadConfig } from '../config.js';
import { entities } from '../features.js';
import { creditsToSettle, entryLine } from '../modules/bank-payments/operator.js';
import { shownAmount } from '../modules/bank-payments/reconcile.js';
import { openDatabase } from '../platform/db/database.js';
import { exitIfRefused } from '../refusal.js';
import { bankArguments } from './bank-arguments.js';

const USAGE = 'usage: npm run bank:unmatched -- [--environment sandbox|production] [--limit <n>]';
const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * Lists the bank credits Ramp holds and could not apply (unmatched, or held for return: late, wrong currency …), on
 * the server's database: exit 0 when there are none, 1 when some wait for an operator, 2 on bad arguments.
 */
async function main(argv: string[]): Promise<number> {
  const args = bankArguments(argv, USAGE, 100);
  if (!args) return 2;
  const { environment } = args;
  const db = await openDatabase({ ...loadConfig(), entities, debug: false });
  try {
    const held = await creditsToSettle(db.fork(), environment, args.limit);
    say(`${held.length} ${environment} bank credits held or unmatched${held.length ? ':' : '.'}`);
    for (const row of held) {
      const line = entryLine(row.outcome, {
        ...row,
        amount: shownAmount(row.amount),
        bookingDate: row.bookingDate ?? null,
        transferId: row.transferId ?? null,
        note: row.reason ?? null,
      });
      // A known customer's words are sealed by their key: the transfer id says whose, the words stay out of a terminal.
      say(`  ${line}  ${row.customerId ? '[sealed]' : (row.remittance ?? '')}  (${row.fileName})`);
    }
    return held.length === 0 ? 0 : 1;
  } finally {
    await db.close();
  }
}

process.exitCode = await main(process.argv.slice(2)).catch(exitIfRefused);
