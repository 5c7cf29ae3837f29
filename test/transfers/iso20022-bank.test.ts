import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XmlDocument } from 'libxml2-wasm';
import { describe, expect, it } from 'vitest';
import { assertValid } from '../../src/rails/bank/iso20022/schemas.js';
import { playingTheBank } from '../support/data/bank-folder.js';
import { createCustomer, ibanAccount, idempotencyKey, offrampQuoteBody, onrampQuoteBody, wallet } from '../support/data/transfers.js';

/**
 * The sandbox's fiat leg through the ISO 20022 adapter (SANDBOX_BANK=iso20022), with BANK_SIMULATOR=off: this test plays
 * the bank on BANK_ISO20022_DIR, reading outbox/ and dropping pain.002 files in inbox/.
 */
const bank = playingTheBank('ramp-bank-');
const { dir } = bank;

const path = () => `/v0/customers/${bank.customerId}/offramp-transfer`;
const simulate = (action: string, transferId: string) => bank.api.post(`${path()}/simulate`, { action, transfer_id: transferId });
const read = async (id: string) => (await bank.api.get(`${path()}/${id}`)).body;
const files = (folder: string) => readdirSync(join(dir, folder)).sort();
const outboxFileOf = (transferId: string) =>
  files('outbox').find((name) => readFileSync(join(dir, 'outbox', name), 'utf8').includes(`<EndToEndId>${compact(transferId)}</EndToEndId>`));
const compact = (id: string) => id.replaceAll('-', '');
/** The bank's jobs: the stored orders' files written, the inbox read. */
const bankTurn = () => bank.t.ramp.chainJobs.runOnce();

/** An off-ramp paid in and settled: its payout ordered from the bank, the transfer still processing. */
async function paidOut(account: Record<string, unknown> = ibanAccount()) {
  const quote = await bank.api.post(
    `${path()}/quote`,
    offrampQuoteBody({ destination_bank_account: account, transfer_purpose: 'personal_expenses' }),
    idempotencyKey(),
  );
  expect(quote.status, JSON.stringify(quote.body)).toBe(201);
  const id: string = quote.body.transfer_id;
  expect((await simulate('crypto_deposit', id)).body.status).toBe('processing');
  const settled = await simulate('complete_transfer', id);
  expect(settled.status, JSON.stringify(settled.body)).toBe(200);
  return settled.body as { id: string; status: string; uetr: string; destination_amount: string };
}

function drop(name: string, content: string) {
  // As a bank's client does: written aside, then moved in whole.
  writeFileSync(join(dir, 'inbox', `.${name}`), content);
  renameSync(join(dir, 'inbox', `.${name}`), join(dir, 'inbox', name));
}

const statusReport = (messageId: string, endToEndId: string, status: string, reason?: string) => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10">
  <CstmrPmtStsRpt>
    <GrpHdr><MsgId>${messageId}</MsgId><CreDtTm>2026-11-28T16:00:00Z</CreDtTm></GrpHdr>
    <OrgnlGrpInfAndSts><OrgnlMsgId>ANY</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId></OrgnlGrpInfAndSts>
    <OrgnlPmtInfAndSts>
      <OrgnlPmtInfId>ANY</OrgnlPmtInfId>
      <TxInfAndSts>
        <OrgnlEndToEndId>${endToEndId}</OrgnlEndToEndId>
        <TxSts>${status}</TxSts>
        ${reason ? `<StsRsnInf><Rsn><Cd>${reason}</Cd></Rsn></StsRsnInf>` : ''}
      </TxInfAndSts>
    </OrgnlPmtInfAndSts>
  </CstmrPmtStsRpt>
</Document>`;

describe('SANDBOX_BANK=iso20022: an off-ramp’s payout as a pain.001', () => {
  it('writes a schema-valid pain.001 to outbox/ carrying the transfer’s EndToEndId and the uetr REST and GraphQL show', async () => {
    const transfer = await paidOut();
    expect(transfer.status).toBe('processing');
    expect(transfer.uetr).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await read(transfer.id)).uetr).toBe(transfer.uetr);
    const gql = await bank.api.graphql(`query ($id: ID!) { transfer(id: $id) { ... on OfframpTransfer { uetr status } } }`, { id: transfer.id });
    expect(gql.body.data.transfer).toEqual({ uetr: transfer.uetr, status: 'PROCESSING' });

    const name = outboxFileOf(transfer.id);
    expect(name).toMatch(/^pain\.001-[0-9a-f-]{36}\.xml$/);
    const content = readFileSync(join(dir, 'outbox', name!), 'utf8');
    expect(() => assertValid(content, 'pain.001.001.09')).not.toThrow();
    const document = XmlDocument.fromString(content);
    const ns = { p: 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09' };
    expect(document.get('//p:PmtId/p:EndToEndId', ns)?.content).toBe(compact(transfer.id));
    expect(document.get('//p:PmtId/p:UETR', ns)?.content).toBe(transfer.uetr);
    expect(document.get('//p:InstdAmt', ns)?.content).toBe(transfer.destination_amount);
    expect(document.get('//p:CdtrAcct/p:Id/p:IBAN', ns)?.content).toBe(ibanAccount().iban.iban_number);
    document.dispose();
    // No half-written file is ever left where the bank looks.
    expect(files('outbox').filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('completes the payout on ACSC, and a second drop of the same report changes nothing', async () => {
    const transfer = await paidOut();
    drop('accept.xml', statusReport('STS-ACCEPT-1', compact(transfer.id), 'ACSC'));
    await bankTurn();
    expect(await read(transfer.id)).toMatchObject({ status: 'completed', failure_reason: null, uetr: transfer.uetr });
    expect(files('processed')).toContain('accept.xml');

    drop('accept.xml', statusReport('STS-ACCEPT-1', compact(transfer.id), 'ACSC'));
    await bankTurn();
    expect((await read(transfer.id)).status).toBe('completed');
    expect(files('processed')).toEqual(expect.arrayContaining(['accept.xml', 'accept.xml.1']));
    const history = await bank.t.sql<{ to_status: string }>(`select to_status from transfer_status_history where transfer_id = ? and to_status = 'completed'`, [
      transfer.id,
    ]);
    expect(history).toHaveLength(1);
  });

  it('fails the payout on RJCT AC01 with the ISO code and its words, holding the funds until they are refunded', async () => {
    const transfer = await paidOut();
    drop('reject.xml', statusReport('STS-REJECT-1', compact(transfer.id), 'RJCT', 'AC01'));
    await bankTurn();
    expect(await read(transfer.id)).toMatchObject({ status: 'failed', failure_reason: 'bank_rejected AC01: incorrect account number' });
    const gql = await bank.api.graphql(`query ($id: ID!) { transfer(id: $id) { ... on OfframpTransfer { failureReason } } }`, { id: transfer.id });
    expect(gql.body.data.transfer.failureReason).toBe('bank_rejected AC01: incorrect account number');
    // An accept arriving after the rejection does not revive the payout.
    drop('late-accept.xml', statusReport('STS-LATE-1', compact(transfer.id), 'ACSC'));
    await bankTurn();
    expect((await read(transfer.id)).status).toBe('failed');
    expect((await simulate('refund_transfer', transfer.id)).body.status).toBe('refunded');
  });

  it('moves a malformed file to rejected/ with its reason beside it, and applies nothing of a file naming a payment Ramp never sent', async () => {
    const transfer = await paidOut();
    drop('broken.xml', '<Document><CstmrPmtStsRpt>');
    drop('invalid.xml', statusReport('STS-BAD-1', compact(transfer.id), 'NOT-A-CODE'));
    // One status for a real payout, one for a payout Ramp never sent: the file is refused whole.
    const mixed = statusReport('STS-MIXED-1', compact(transfer.id), 'ACSC').replace(
      '</OrgnlPmtInfAndSts>',
      '<TxInfAndSts><OrgnlEndToEndId>00000000000000000000000000000000</OrgnlEndToEndId><TxSts>ACSC</TxSts></TxInfAndSts></OrgnlPmtInfAndSts>',
    );
    drop('mixed.xml', mixed);
    await bankTurn();
    expect(files('inbox')).toEqual([]);
    expect(files('rejected')).toEqual(['broken.xml', 'broken.xml.reason', 'invalid.xml', 'invalid.xml.reason', 'mixed.xml', 'mixed.xml.reason']);
    expect(readFileSync(join(dir, 'rejected', 'broken.xml.reason'), 'utf8')).toMatch(/^not well-formed XML/);
    expect(readFileSync(join(dir, 'rejected', 'invalid.xml.reason'), 'utf8')).toMatch(/^not valid against the pain\.002\.001\.10 schema/);
    expect(readFileSync(join(dir, 'rejected', 'mixed.xml.reason'), 'utf8')).toMatch(/EndToEndId 00000000000000000000000000000000, which Ramp never sent/);
    expect((await read(transfer.id)).status).toBe('processing');
  });

  it('writes the file of a payout stored when writing failed after the commit, once, from the sender job', async () => {
    // The outbox cannot be written to: the settlement commits, its after-commit write fails.
    renameSync(join(dir, 'outbox'), join(dir, 'outbox-away'));
    writeFileSync(join(dir, 'outbox'), 'not a folder');
    const transfer = await paidOut();
    rmSync(join(dir, 'outbox'));
    renameSync(join(dir, 'outbox-away'), join(dir, 'outbox'));
    expect(outboxFileOf(transfer.id)).toBeUndefined();
    const [order] = await bank.t.sql<{ status: string }>(`select status from bank_payment_orders where transfer_id = ?`, [transfer.id]);
    expect(order?.status).toBe('stored');

    await bankTurn();
    await bankTurn();
    const written = files('outbox').filter((name) => readFileSync(join(dir, 'outbox', name), 'utf8').includes(compact(transfer.id)));
    expect(written).toHaveLength(1);
    const [sent] = await bank.t.sql<{ status: string }>(`select status from bank_payment_orders where transfer_id = ?`, [transfer.id]);
    expect(sent?.status).toBe('sent');
    expect(existsSync(join(dir, 'outbox', written[0]!))).toBe(true);
  });
});

describe('SANDBOX_BANK=iso20022: an on-ramp’s deposit refunded in fiat as a pain.001', () => {
  /** A paid on-ramp of 100 EUR over SEPA (processing), of a new customer, with an external IBAN account when `account`. */
  async function paidOnramp(account: Record<string, unknown> | null) {
    const customer = await createCustomer(bank.api);
    if (account) {
      const created = await bank.api.post(`/v0/customers/${customer}/external-accounts`, account, idempotencyKey());
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const quote = await bank.api.post(`/v0/customers/${customer}/onramp-transfer/quote`, onrampQuoteBody());
    const transfer = await bank.api.post(`/v0/customers/${customer}/onramp-transfer/quote/${quote.body.quote_id}`, { destination_address: wallet() });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
    const id: string = transfer.body.id;
    const refund = () => bank.api.post(`/v0/customers/${customer}/onramp-transfer/simulate`, { action: 'refund_transfer', transfer_id: id });
    const paid = await bank.api.post(`/v0/customers/${customer}/onramp-transfer/simulate`, { action: 'fiat_deposit', transfer_id: id });
    expect(paid.body.status).toBe('processing');
    const status = async () => (await bank.api.get(`/v0/customers/${customer}/onramp-transfer/${id}`)).body.status as string;
    return { id, refund, status };
  }
  const refundOrders = (transferId: string) =>
    bank.t.sql<{ id: string; end_to_end_id: string; uetr: string; status: string; reason_code: string | null }>(
      `select id, end_to_end_id, uetr, status, reason_code from bank_payment_orders where transfer_id = ? and purpose = 'refund' order by created_at`,
      [transferId],
    );
  const outboxFileWith = (endToEndId: string) =>
    files('outbox')
      .map((name) => readFileSync(join(dir, 'outbox', name), 'utf8'))
      .filter((content) => content.includes(`<EndToEndId>${endToEndId}</EndToEndId>`));

  it('sends the deposit back to the customer’s IBAN with its own EndToEndId and UETR, rejected AC04 then accepted on a second try', async () => {
    const onramp = await paidOnramp(ibanAccount({ iban: { bic: 'COBADEFFXXX', iban_number: 'DE02120300000000202051' } }));
    const asked = await onramp.refund();
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    // Failed at once (nothing may settle it meanwhile), refunded only when the bank says the money went back.
    expect(asked.body.status).toBe('failed');
    const [first] = await refundOrders(onramp.id);
    expect(first).toMatchObject({ status: 'sent', reason_code: null });
    expect(first!.end_to_end_id).toBe(compact(first!.id));
    expect(first!.end_to_end_id).not.toBe(compact(onramp.id));
    const [file] = outboxFileWith(first!.end_to_end_id);
    expect(() => assertValid(file!, 'pain.001.001.09')).not.toThrow();
    const document = XmlDocument.fromString(file!);
    const text = (path: string) => document.get(path, { p: 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09' })?.content;
    expect({
      uetr: text('//p:CdtTrfTxInf/p:PmtId/p:UETR'),
      amount: text('//p:CdtTrfTxInf/p:Amt/p:InstdAmt'),
      creditorIban: text('//p:CdtrAcct/p:Id/p:IBAN'),
      creditorName: text('//p:Cdtr/p:Nm'),
    }).toEqual({ uetr: first!.uetr, amount: '100.00', creditorIban: 'DE02120300000000202051', creditorName: 'Ada Lovelace' });
    document.dispose();

    drop('refund-reject.xml', statusReport('STS-REFUND-REJECT-1', first!.end_to_end_id, 'RJCT', 'AC04'));
    await bankTurn();
    expect(await onramp.status()).toBe('failed');
    expect((await refundOrders(onramp.id))[0]).toMatchObject({ status: 'rejected', reason_code: 'AC04' });

    // Asked again: a new refund order, a new EndToEndId and UETR; asking while it is in flight returns the same one.
    expect((await onramp.refund()).body.status).toBe('failed');
    expect((await onramp.refund()).body.status).toBe('failed');
    const orders = await refundOrders(onramp.id);
    expect(orders).toHaveLength(2);
    const second = orders[1]!;
    expect(second.end_to_end_id).not.toBe(first!.end_to_end_id);
    expect(second.uetr).not.toBe(first!.uetr);
    expect(outboxFileWith(second.end_to_end_id)).toHaveLength(1);

    drop('refund-accept.xml', statusReport('STS-REFUND-ACCEPT-1', second.end_to_end_id, 'ACSC'));
    await bankTurn();
    expect(await onramp.status()).toBe('refunded');
    drop('refund-accept.xml', statusReport('STS-REFUND-ACCEPT-1', second.end_to_end_id, 'ACSC'));
    await bankTurn();
    const refunds = await bank.t.sql(`select id from ledger_transactions where transfer_id = ? and movement = 'refund'`, [onramp.id]);
    expect(refunds).toHaveLength(1);
  });

  it('answers 422 refund_account_missing, changing nothing, when the customer has no account that takes SEPA', async () => {
    const onramp = await paidOnramp(null);
    const asked = await onramp.refund();
    expect(asked.status).toBe(422);
    expect(asked.body.code).toBe('refund_account_missing');
    expect(await onramp.status()).toBe('processing');
    expect(await refundOrders(onramp.id)).toEqual([]);
  });
});
