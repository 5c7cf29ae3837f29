import { execFile } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRamp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { EntryToBook } from '../../src/rails/bank/iso20022/camt.js';
import { bankToCustomerStatement } from '../../src/rails/bank/iso20022/camt053.js';
import { debitCreditNotification } from '../../src/rails/bank/iso20022/camt054.js';
import { migratedDatabaseEnv } from '../support/ramp.js';

/**
 * `npm run bank:unmatched` and `npm run bank:reconcile` as an operator runs them, on this file's own database (the
 * embedded one is opened by one process at a time, so Ramp is stopped while a command runs): a credit the bank
 * notified that names nothing Ramp knows, then a statement holding it and an entry Ramp never heard of.
 */
/** A command starts tsx and opens the database on its own: seconds, more on a busy machine. */
const COMMAND_TIMEOUT_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), 'ramp-bank-cli-'));
const today = new Date().toISOString().slice(0, 10);
const ACCOUNT = 'DE89370400440532013000';
const stray: EntryToBook = { reference: 'CLI-STRAY-1', direction: 'credit', amount: '75.00', currency: 'EUR', bookingDate: today, remittance: 'who knows' };
const stranger: EntryToBook = { reference: 'CLI-STRANGER-1', direction: 'credit', amount: '9.99', currency: 'EUR', bookingDate: today };

describe('the bank operator commands', () => {
  let database: Awaited<ReturnType<typeof migratedDatabaseEnv>>;
  const run = async (script: string, args: string[]) => {
    const env = { ...process.env, ...database.env, LOG_LEVEL: 'silent', NODE_ENV: 'test' };
    try {
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', script, '--', ...args], { env });
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout + failed.stderr };
    }
  };

  beforeAll(async () => {
    database = await migratedDatabaseEnv();
    const ramp = await createRamp(
      loadConfig({
        NODE_ENV: 'test',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        SANDBOX_BANK: 'iso20022',
        BANK_ISO20022_DIR: dir,
        BANK_SIMULATOR: 'off',
        ...database.env,
      }),
    );
    try {
      const file = debitCreditNotification({ messageId: 'CLI-NTF-1', createdAt: new Date(), account: ACCOUNT, entries: [stray] });
      writeFileSync(join(dir, 'inbox', '.camt054.xml'), file);
      renameSync(join(dir, 'inbox', '.camt054.xml'), join(dir, 'inbox', 'camt054.xml'));
      await ramp.chainJobs.runOnce();
    } finally {
      await ramp.close();
    }
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'bank:unmatched lists the credit Ramp holds unmatched, and exits 1',
    async () => {
      const { code, stdout } = await run('bank:unmatched', ['--environment', 'sandbox']);
      expect(stdout).toMatch(/^1 sandbox bank credits held or unmatched:/);
      expect(stdout).toMatch(/unmatched\s+credit\s+75\.00 EUR\s+CLI-STRAY-1\s+.*no_deposit_message_or_account\s+who knows\s+\(camt054\.xml\)/);
      expect(code).toBe(1);
      expect((await run('bank:unmatched', ['--environment', 'production'])).stdout).toMatch(/^0 production bank credits held or unmatched\./);
    },
    COMMAND_TIMEOUT_MS,
  );

  it(
    'bank:reconcile reconciles a statement file, prints what did not match, exits 1, and prints it again later',
    async () => {
      const statement = bankToCustomerStatement({
        messageId: 'CLI-STMT-1',
        createdAt: new Date(),
        account: ACCOUNT,
        currency: 'EUR',
        date: today,
        entries: [stray, stranger],
      });
      writeFileSync(join(dir, 'statement.xml'), statement);
      const first = await run('bank:reconcile', ['--environment', 'sandbox', '--file', join(dir, 'statement.xml')]);
      expect(first.stdout).toMatch(/^Statement CLI-STMT-1 of DE89370400440532013000 .*statement\.xml: 0 matched, 1 unmatched, 1 unexpected, 0 missing/);
      expect(first.stdout).toMatch(/unmatched\s+credit\s+75\.00 EUR\s+CLI-STRAY-1\s+.*unmatched: no_deposit_message_or_account/);
      expect(first.stdout).toMatch(/unexpected\s+credit\s+9\.99 EUR\s+CLI-STRANGER-1\s+.*never notified/);
      expect(first.code).toBe(1);

      const later = await run('bank:reconcile', ['--environment', 'sandbox']);
      expect(later.stdout).toMatch(/^Statement CLI-STMT-1 .*0 matched, 1 unmatched, 1 unexpected, 0 missing/);

      writeFileSync(join(dir, 'broken.xml'), '<Document>');
      const broken = await run('bank:reconcile', ['--environment', 'sandbox', '--file', join(dir, 'broken.xml')]);
      expect(broken.stdout).toMatch(/broken\.xml is refused: not well-formed XML/);
      expect(broken.code).toBe(1);
    },
    COMMAND_TIMEOUT_MS,
  );
});
