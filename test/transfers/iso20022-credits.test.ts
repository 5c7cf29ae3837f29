import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EntryToBook } from '../../src/rails/bank/iso20022/camt.js';
import { bankToCustomerStatement } from '../../src/rails/bank/iso20022/camt053.js';
import { debitCreditNotification } from '../../src/rails/bank/iso20022/camt054.js';
import { loadConfig } from '../../src/config.js';
import { createDataKeys } from '../../src/modules/customers/data-keys.js';
import { scopeTo } from '../../src/platform/security/tenant.js';
import { playingTheBank } from '../support/data/bank-folder.js';
import { ageTransfer, createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * The bank's camt.054 notifications in, through the ISO 20022 adapter (SANDBOX_BANK=iso20022, BANK_SIMULATOR=off):
 * this test plays the bank, dropping files in BANK_ISO20022_DIR/inbox/.
 */
const bank = playingTheBank('ramp-camt-');
const { dir } = bank;

const RAMP_ACCOUNT = 'DE89370400440532013000';
const today = () => new Date().toISOString().slice(0, 10);
let sequence = 0;
const reference = (label: string) => `${label}-${Date.now()}-${++sequence}`;
const files = (folder: string) => readdirSync(join(dir, folder)).sort();
/** The bank's jobs: the inbox read. */
const bankTurn = () => bank.t.ramp.chainJobs.runOnce();

function drop(name: string, content: string) {
  writeFileSync(join(dir, 'inbox', `.${name}`), content);
  renameSync(join(dir, 'inbox', `.${name}`), join(dir, 'inbox', name));
}
const notification = (entries: EntryToBook[], account = RAMP_ACCOUNT) =>
  debitCreditNotification({ messageId: reference('NTF'), createdAt: new Date(), account, entries });
const credit = (amount: string, more: Partial<EntryToBook> = {}): EntryToBook => ({
  reference: reference('CRDT'),
  direction: 'credit',
  amount,
  currency: 'EUR',
  bookingDate: today(),
  ...more,
});

async function newOnramp(overrides: Record<string, unknown> = {}) {
  const quote = await bank.api.post(`/v0/customers/${bank.customerId}/onramp-transfer/quote`, onrampQuoteBody(overrides));
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  const res = await bank.api.post(`/v0/customers/${bank.customerId}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string; quote: { deposit_message: string } };
}
const readOnramp = async (id: string) => (await bank.api.get(`/v0/customers/${bank.customerId}/onramp-transfer/${id}`)).body;
const entryRow = async (ref: string) =>
  (
    await bank.t.sql<{ outcome: string; reason: string | null; transfer_id: string | null }>(
      'select outcome, reason, transfer_id from bank_entries where reference = ?',
      [ref],
    )
  )[0];

const statusReport = (messageId: string, endToEndId: string, status: string) => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10">
  <CstmrPmtStsRpt>
    <GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>2026-11-28T16:00:00Z</CreDtTm></GrpHdr>
    <OrgnlGrpInfAndSts><OrgnlMsgId>ANY</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId></OrgnlGrpInfAndSts>
    <OrgnlPmtInfAndSts><OrgnlPmtInfId>ANY</OrgnlPmtInfId><TxInfAndSts><OrgnlEndToEndId>${endToEndId}</OrgnlEndToEndId><TxSts>${status}</TxSts></TxInfAndSts></OrgnlPmtInfAndSts>
  </CstmrPmtStsRpt>
</Document>`;

describe('camt.054 credits', () => {
  it('credits the on-ramp whose deposit message the payer wrote, however spaced; the same file dropped again changes nothing', async () => {
    const transfer = await newOnramp();
    const message = transfer.quote.deposit_message;
    // As a banking app may show it: lower case, in groups of four, after the payer's own words.
    const spaced = message.toLowerCase().replace(/(.{4})/g, '$1 ');
    const entry = credit('100.00', { remittance: `Invoice 42 ${spaced}` });
    const file = notification([entry]);
    drop('credit.xml', file);
    await bankTurn();
    expect(await readOnramp(transfer.id)).toMatchObject({ status: 'processing', deposit_received_amount: '100.00' });
    expect(await entryRow(entry.reference)).toEqual({ outcome: 'credited', reason: null, transfer_id: transfer.id });

    drop('credit.xml', file);
    await bankTurn();
    expect(files('processed')).toEqual(expect.arrayContaining(['credit.xml', 'credit.xml.1']));
    const history = await bank.t.sql('select 1 from transfer_status_history where transfer_id = ?', [transfer.id]);
    const deposits = await bank.t.sql(`select 1 from ledger_transactions where transfer_id = ? and movement = 'deposit'`, [transfer.id]);
    expect({ history: history.length, deposits: deposits.length }).toEqual({ history: 2, deposits: 1 });
  });

  it('follows today’s rules for fiat deposits: less fails it underpaid, more funds it and returns the excess, late is held', async () => {
    const [under, over, late] = [await newOnramp(), await newOnramp(), await newOnramp()];
    await ageTransfer(bank.t, late.id);
    const entries = [
      credit('60.00', { remittance: under.quote.deposit_message }),
      credit('130.00', { remittance: over.quote.deposit_message }),
      credit('100.00', { remittance: late.quote.deposit_message }),
    ];
    drop('amounts.xml', notification(entries));
    await bankTurn();
    expect(await readOnramp(under.id)).toMatchObject({ status: 'failed', failure_reason: 'underpaid', deposit_received_amount: '60.00' });
    expect(await readOnramp(over.id)).toMatchObject({ status: 'processing', deposit_received_amount: '130.00' });
    const excess = await bank.t.sql(`select 1 from ledger_transactions where transfer_id = ? and movement = 'excess_return'`, [over.id]);
    expect(excess).toHaveLength(1);
    expect((await readOnramp(late.id)).status).toBe('pending');
    expect(await entryRow(entries[2]!.reference)).toEqual({ outcome: 'held', reason: 'late', transfer_id: late.id });
  });

  it('credits a virtual account by the account the payer paid into: a new on-ramp, funded', async () => {
    const opened = await bank.api.post(`/v0/customers/${bank.customerId}/virtual-account`, {
      source_currency: 'eur',
      destination_token: 'usdc',
      destination_network: 'polygon',
      destination_address: wallet(),
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const iban: string = opened.body.deposit_instructions.iban.iban_number;
    const entry = credit('250.00', { creditorAccount: iban, remittance: 'rent' });
    drop('virtual.xml', notification([entry]));
    await bankTurn();
    const row = await entryRow(entry.reference);
    expect(row).toMatchObject({ outcome: 'credited', reason: null });
    const transfer = await readOnramp(row!.transfer_id!);
    expect(transfer).toMatchObject({ status: 'processing', virtual_account_id: opened.body.id, amount: '250.00' });
  });

  it('holds a credit that names nothing Ramp knows as unmatched, and a batch booking for an operator to split', async () => {
    const entry = credit('75.00', { remittance: 'no reference at all', creditorAccount: 'DE02120300000000202051' });
    drop('unmatched.xml', notification([entry]));
    await bankTurn();
    expect(await entryRow(entry.reference)).toEqual({ outcome: 'unmatched', reason: 'no_deposit_message_or_account', transfer_id: null });
    const [listed] = await bank.t.sql<{ amount: string; remittance: string }>(
      `select amount::text as amount, remittance from bank_entries where outcome = 'unmatched' and reference = ?`,
      [entry.reference],
    );
    expect(listed).toEqual({ amount: '75.000000000000000000', remittance: 'no reference at all' });
  });

  it('refuses a file with one invalid entry whole: its valid entry is not applied either', async () => {
    const transfer = await newOnramp();
    const good = credit('100.00', { remittance: transfer.quote.deposit_message });
    const file = notification([good, credit('5.00')]).replace(/<CdtDbtInd>CRDT<\/CdtDbtInd>(?![\s\S]*<CdtDbtInd>CRDT)/, '<CdtDbtInd>SIDEWAYS</CdtDbtInd>');
    drop('half-bad.xml', file);
    await bankTurn();
    expect(files('rejected')).toEqual(expect.arrayContaining(['half-bad.xml', 'half-bad.xml.reason']));
    expect(readFileSync(join(dir, 'rejected', 'half-bad.xml.reason'), 'utf8')).toMatch(/^not valid against the camt\.054\.001\.08 schema/);
    expect((await readOnramp(transfer.id)).status).toBe('pending');
    expect(await entryRow(good.reference)).toBeUndefined();
  });
});

describe('camt.054 returns', () => {
  it('fails the payout the beneficiary’s bank sent back with its ISO reason, its funds held until refunded', async () => {
    const path = `/v0/customers/${bank.customerId}/offramp-transfer`;
    const quote = await bank.api.post(
      `${path}/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'personal_expenses' }),
      idempotencyKey(),
    );
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    const id: string = quote.body.transfer_id;
    expect((await bank.api.post(`${path}/simulate`, { action: 'crypto_deposit', transfer_id: id })).body.status).toBe('processing');
    const settled = await bank.api.post(`${path}/simulate`, { action: 'complete_transfer', transfer_id: id });
    expect(settled.body.status).toBe('processing');

    const entry: EntryToBook = {
      reference: reference('RTRN'),
      direction: 'credit',
      amount: settled.body.destination_amount,
      currency: 'EUR',
      bookingDate: today(),
      endToEndId: id.replaceAll('-', ''),
      returnReason: 'AC04',
    };
    drop('return.xml', notification([entry]));
    await bankTurn();
    const transfer = (await bank.api.get(`${path}/${id}`)).body;
    expect(transfer).toMatchObject({ status: 'failed', failure_reason: 'bank_returned AC04: closed account number' });
    expect(await entryRow(entry.reference)).toMatchObject({ outcome: 'returned', transfer_id: id });
    const [order] = await bank.t.sql<{ status: string; reason_code: string }>('select status, reason_code from bank_payment_orders where transfer_id = ?', [
      id,
    ]);
    expect(order).toEqual({ status: 'rejected', reason_code: 'AC04' });
    expect((await bank.api.post(`${path}/simulate`, { action: 'refund_transfer', transfer_id: id })).body.status).toBe('refunded');
  });
});

describe('camt.053 statements', () => {
  it('reconciles a statement against the ledger: matched, one unexpected entry, one missing movement; once per statement', async () => {
    // An account of its own, so other tests' credits today are no part of this statement.
    const account = reference('RECON').slice(0, 34);
    const [a, b] = [await newOnramp(), await newOnramp()];
    const [creditA, creditB] = [credit('100.00', { remittance: a.quote.deposit_message }), credit('100.00', { remittance: b.quote.deposit_message })];
    drop('recon-credits.xml', notification([creditA, creditB], account));
    await bankTurn();
    expect((await readOnramp(b.id)).status).toBe('processing');

    const stranger = credit('12.34', { remittance: 'never notified' });
    const statement = bankToCustomerStatement({
      messageId: reference('STMT'),
      createdAt: new Date(),
      account,
      currency: 'EUR',
      date: today(),
      entries: [creditA, stranger],
    });
    drop('statement.xml', statement);
    drop('statement-again.xml', statement);
    await bankTurn();
    const rows = await bank.t.sql<{
      matched: number;
      unmatched: unknown[];
      unexpected: { reference: string }[];
      missing: { reference: string; transferId: string }[];
    }>('select matched, unmatched, unexpected, missing from bank_reconciliations where account = ?', [account]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ matched: 1, unmatched: [] });
    expect(rows[0]!.unexpected).toEqual([expect.objectContaining({ reference: stranger.reference, amount: '12.34', note: 'never notified' })]);
    expect(rows[0]!.missing).toEqual([expect.objectContaining({ reference: creditB.reference, transferId: b.id, amount: '100.00', currency: 'EUR' })]);
    expect(files('processed')).toEqual(expect.arrayContaining(['statement.xml', 'statement-again.xml']));
  });

  it('lists a payout the bank accepted but the statement lacks with its amount and currency', async () => {
    const path = `/v0/customers/${bank.customerId}/offramp-transfer`;
    const quote = await bank.api.post(
      `${path}/quote`,
      offrampQuoteBody({ destination_bank_account: ibanAccount(), transfer_purpose: 'personal_expenses' }),
      idempotencyKey(),
    );
    const id: string = quote.body.transfer_id;
    await bank.api.post(`${path}/simulate`, { action: 'crypto_deposit', transfer_id: id });
    const settled = await bank.api.post(`${path}/simulate`, { action: 'complete_transfer', transfer_id: id });
    expect(settled.body.status).toBe('processing');
    drop('payout-accepted.xml', statusReport(reference('STS'), id.replaceAll('-', ''), 'ACSC'));
    await bankTurn();
    expect((await bank.api.get(`${path}/${id}`)).body.status).toBe('completed');

    const account = reference('PAYOUTS').slice(0, 34);
    drop(
      'payout-statement.xml',
      bankToCustomerStatement({ messageId: reference('STMT'), createdAt: new Date(), account, currency: 'EUR', date: today(), entries: [] }),
    );
    await bankTurn();
    const [row] = await bank.t.sql<{ missing: { reference: string; direction: string; amount: string | null; currency: string | null }[] }>(
      'select missing from bank_reconciliations where account = ?',
      [account],
    );
    expect(row!.missing).toContainEqual(
      expect.objectContaining({ reference: id.replaceAll('-', ''), direction: 'debit', amount: settled.body.destination_amount, currency: 'EUR' }),
    );
  });

  it('seals a known customer’s remittance words and the account paid into by their key, and erasure redacts them', async () => {
    const customer = await createCustomer(bank.api);
    const path = `/v0/customers/${customer}/onramp-transfer`;
    const quote = await bank.api.post(`${path}/quote`, onrampQuoteBody());
    const onramp = (await bank.api.post(`${path}/quote/${quote.body.quote_id}`, { destination_address: wallet() })).body;
    const words = `Rent for Ada Lovelace ${onramp.quote.deposit_message}`;
    const entry = credit('100.00', { remittance: words, creditorAccount: 'DE02120300000000202051' });
    drop('sealed.xml', notification([entry]));
    await bankTurn();
    const stored = () =>
      bank.t.sql<{ outcome: string; customer_id: string | null; remittance: string | null; creditor_account: string | null; amount: string }>(
        'select outcome, customer_id, remittance, creditor_account, amount::text as amount from bank_entries where reference = ?',
        [entry.reference],
      );
    const [sealed] = await stored();
    expect(sealed).toMatchObject({ outcome: 'credited', customer_id: customer });
    // Neither the payer's words nor the account appear in the row: each is sealed, and opens with the customer's key.
    expect(JSON.stringify(sealed)).not.toContain('Lovelace');
    expect(JSON.stringify(sealed)).not.toContain('DE02120300000000202051');
    const [{ partner_id }] = (await bank.t.sql<{ partner_id: string }>('select partner_id from customers where id = ?', [customer])) as [
      { partner_id: string },
    ];
    const dataKeys = createDataKeys({ current: loadConfig({ NODE_ENV: 'test' }).encryptionMasterKey });
    const em = scopeTo(bank.t.ramp.db.fork(), { partnerId: partner_id, environment: 'sandbox' });
    expect(await dataKeys.open(em, customer, sealed!.remittance!)).toBe(words);

    // A credit for no one Ramp knows stays in clear, for the operator who must place it.
    const stray = credit('5.00', { remittance: 'for nobody in particular' });
    drop('stray.xml', notification([stray]));
    await bankTurn();
    expect((await bank.t.sql('select remittance, customer_id from bank_entries where reference = ?', [stray.reference]))[0]).toEqual({
      remittance: 'for nobody in particular',
      customer_id: null,
    });

    expect((await bank.api.post(`${path}/simulate`, { action: 'complete_transfer', transfer_id: onramp.id })).body.status).toBe('completed');
    const redacted = await bank.api.post(`/v0/customers/${customer}/redact`);
    expect(redacted.status, JSON.stringify(redacted.body)).toBe(200);
    const [after] = await stored();
    expect(after).toMatchObject({ outcome: 'credited', remittance: '[redacted]', creditor_account: '[redacted]', amount: '100.000000000000000000' });
  });
});
