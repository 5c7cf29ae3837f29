import { mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountXpub } from '../../src/rails/evm/hd.js';
import { type LocalNode, startLocalNode } from '../../src/rails/evm/local-node.js';
import { SANDBOX_CHAIN_ID, SANDBOX_MNEMONIC, fundWallet, sendFromWallet, setUpSandboxChain } from '../../src/rails/evm/sandbox-chain.js';
import { debitCreditNotification } from '../../src/rails/bank/iso20022/camt054.js';
import { paymentStatusReport } from '../../src/rails/bank/iso20022/pain002.js';
import { assertValid } from '../../src/rails/bank/iso20022/schemas.js';
import { openOfframp } from '../support/chain/ramp.js';
import { type ApiClient, type TestRamp, startRamp } from '../support/ramp.js';
import { isValidIban } from '../../src/domain/identifiers/bank.js';
import { createCustomer, ibanAccount, wallet } from '../support/data/transfers.js';
import { productionBankEnv } from '../support/data/bank-folder.js';

/**
 * Production's money through its configured bank, end to end: a chain standing in for polygon (a local node) and a
 * bank folder this test plays. Nobody calls a simulate route here: production has none.
 */
const dir = mkdtempSync(join(tmpdir(), 'ramp-production-money-'));
const BANK = {
  ...productionBankEnv(dir),
  // The numbers the bank reserved for Ramp's virtual accounts: the last ten digits of its IBAN's account number.
  BANK_VIRTUAL_ACCOUNTS: '0417200000-0417200001',
};
let node: LocalNode;
let usdc: string;
let t: TestRamp;
let live: ApiClient;
let customerId: string;

beforeAll(async () => {
  node = await startLocalNode({ chainId: SANDBOX_CHAIN_ID, mnemonic: SANDBOX_MNEMONIC, blockTimeSeconds: 0, stateDir: null });
  const treasury = mnemonicToAccount(SANDBOX_MNEMONIC, { addressIndex: 1 });
  const setup = await setUpSandboxChain({ url: node.rpcUrl, timeoutMs: 5000 }, mnemonicToAccount(SANDBOX_MNEMONIC).address, [treasury.address]);
  usdc = setup.tokens.polygon!.find((c) => c.token === 'usdc')!.contractAddress;
  const keyFile = join(mkdtempSync(join(tmpdir(), 'ramp-treasury-')), 'polygon.key');
  writeFileSync(keyFile, bytesToHex(treasury.getHdKey().privateKey!), { mode: 0o600 });
  t = await startRamp({
    ...BANK,
    CHAIN_POLL_INTERVAL_MS: '0',
    EVM_POLYGON_RPC_URLS: node.rpcUrl,
    EVM_POLYGON_CHAIN_ID: String(SANDBOX_CHAIN_ID),
    EVM_POLYGON_USDC_ADDRESS: usdc,
    EVM_POLYGON_CONFIRMATIONS: '1',
    EVM_POLYGON_XPUB: accountXpub('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about', 0),
    EVM_POLYGON_TREASURY_KEY_FILE: keyFile,
  });
  live = t.client(await t.keyFor('Live Partner', 'production'));
  customerId = await createCustomer(live, { approved: false });
  // A production customer can only be approved by a real KYC provider; stand in for it in the database.
  const approved = await createCustomer(t.client(t.key));
  await t.sql('update customers set kyc_status_breakdown = (select kyc_status_breakdown from customers where id = ?) where id = ?', [approved, customerId]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const files = (folder: string) => readdirSync(join(dir, folder)).sort();
const compact = (id: string) => id.replaceAll('-', '');
const outboxFileOf = (endToEndId: string) =>
  files('outbox').filter((name) => readFileSync(join(dir, 'outbox', name), 'utf8').includes(`<EndToEndId>${endToEndId}</EndToEndId>`));
/** As a bank's client does: written aside, then moved in whole. */
function drop(name: string, content: string) {
  writeFileSync(join(dir, 'inbox', `.${name}`), content);
  renameSync(join(dir, 'inbox', `.${name}`), join(dir, 'inbox', name));
}
const jobs = () => t.ramp.chainJobs.runOnce();
const mine = (blocks: number) =>
  fetch(node.rpcUrl, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [`0x${blocks.toString(16)}`] }) });

describe('a production off-ramp with a bank configured', () => {
  it('pays its fiat through the bank once the deposit is confirmed: a pain.001 in outbox/, completed on the bank’s ACSC', async () => {
    const transfer = await openOfframp(live, customerId, { source_network: 'polygon', destination_bank_account: ibanAccount() });
    const payer = wallet('polygon', 'production-payer');
    await fundWallet({ url: node.rpcUrl, timeoutMs: 5000 }, usdc, payer, 100_000_000n);
    await sendFromWallet({ url: node.rpcUrl, timeoutMs: 5000 }, payer, usdc, transfer.quote.deposit_blockchain_address, 100_000_000n);
    await mine(2);
    await jobs();
    const funded = (await live.get(`/v0/customers/${customerId}/offramp-transfer/${transfer.id}`)).body;
    expect(funded.status).toBe('processing');
    await jobs();

    // The bank's job ordered the payout without anyone asking: one file, schema-valid, paying the customer's IBAN.
    const written = outboxFileOf(compact(transfer.id));
    expect(written).toHaveLength(1);
    const content = readFileSync(join(dir, 'outbox', written[0]!), 'utf8');
    expect(() => assertValid(content, 'pain.001.001.09')).not.toThrow();
    expect(content).toContain(`<IBAN>${ibanAccount().iban.iban_number}</IBAN>`);
    expect(content).toContain(`<IBAN>${BANK.BANK_DEBTOR_IBAN}</IBAN>`);
    const [order] = await t.sql<{ status: string; uetr: string }>('select status, uetr from bank_payment_orders where transfer_id = ?', [transfer.id]);
    expect(order).toMatchObject({ status: 'sent' });
    const ordered = (await live.get(`/v0/customers/${customerId}/offramp-transfer/${transfer.id}`)).body;
    expect(ordered).toMatchObject({ status: 'processing', uetr: order!.uetr });

    // Another round orders nothing more.
    await jobs();
    expect(outboxFileOf(compact(transfer.id))).toEqual(written);

    const accepted = paymentStatusReport({
      messageId: 'PRODUCTION-ACSC-1',
      createdAt: new Date(),
      originalMessageId: 'ANY',
      transactions: [{ endToEndId: compact(transfer.id), uetr: order!.uetr, code: 'ACSC' }],
    });
    drop('accept.xml', accepted);
    await jobs();
    expect((await live.get(`/v0/customers/${customerId}/offramp-transfer/${transfer.id}`)).body).toMatchObject({ status: 'completed', failure_reason: null });
    expect(files('processed')).toContain('accept.xml');
  });
});

describe('a production virtual account with a bank configured', () => {
  const open = (body: Record<string, unknown>) =>
    live.post(`/v0/customers/${customerId}/virtual-account`, { destination_token: 'usdc', destination_network: 'polygon', ...body });

  it('is issued numbers of the range the bank reserved, and a camt.054 credit to that number funds it', async () => {
    const eur = await open({ source_currency: 'eur', destination_address: wallet('polygon', 'va-1') });
    expect(eur.status, JSON.stringify(eur.body)).toBe(201);
    expect(eur.body.status).toBe('active');
    // Ramp's own IBAN with the range's first number as its account number: the bank code kept, the check digits computed.
    const iban: string = eur.body.deposit_instructions.iban.iban_number;
    expect(iban).toMatch(/^NL[0-9]{2}ABNA0417200000$/);
    expect(isValidIban(iban)).toBe(true);
    expect(eur.body.deposit_instructions).toMatchObject({ bank_name: BANK.BANK_NAME, iban: { bic: BANK.BANK_DEBTOR_BIC } });
    const next = await open({ source_currency: 'eur', destination_address: wallet('polygon', 'va-2') });
    expect(next.body.deposit_instructions.iban.iban_number).toMatch(/^NL[0-9]{2}ABNA0417200001$/);
    // The range is used up: the next account waits, pending, for numbers the bank issues itself.
    const third = await open({ source_currency: 'eur', destination_address: wallet('polygon', 'va-3') });
    expect(third.status).toBe(202);
    expect(third.body.status).toBe('pending');
    // Dollars: the range's number at Ramp's routing number, counted apart from the euros'.
    const usd = await open({ source_currency: 'usd', destination_address: wallet('polygon', 'va-4') });
    expect(usd.body.deposit_instructions.us).toEqual({ routing_number: BANK.BANK_DEBTOR_ROUTING_NUMBER, account_number: '0417200000' });

    const reference = 'PRODUCTION-VA-CREDIT-1';
    drop(
      'va-credit.xml',
      debitCreditNotification({
        messageId: 'PRODUCTION-VA-NTFCTN-1',
        createdAt: new Date(),
        account: BANK.BANK_DEBTOR_IBAN,
        entries: [
          { reference, direction: 'credit', amount: '250.00', currency: 'EUR', bookingDate: new Date().toISOString().slice(0, 10), creditorAccount: iban },
        ],
      }),
    );
    await jobs();
    const [entry] = await t.sql<{ outcome: string; transfer_id: string }>('select outcome, transfer_id from bank_entries where reference = ?', [reference]);
    expect(entry).toMatchObject({ outcome: 'credited' });
    const transfer = (await live.get(`/v0/customers/${customerId}/onramp-transfer/${entry!.transfer_id}`)).body;
    expect(transfer).toMatchObject({ virtual_account_id: eur.body.id, amount: '250.00' });
    expect(['processing', 'completed']).toContain(transfer.status);
  });
});
