import { randomUUID } from 'node:crypto';
import { XmlDocument, type XmlElement } from 'libxml2-wasm';
import { describe, expect, it } from 'vitest';
import { iso20022Bank } from '../../src/rails/bank/iso20022/bank.js';
import { folderTransport } from '../../src/rails/bank/iso20022/folder.js';
import { readStatusReport } from '../../src/rails/bank/iso20022/pain002.js';
import { BankFileRefused, assertValid } from '../../src/rails/bank/iso20022/schemas.js';
import { sandboxCollectionAccount, sandboxServes } from '../../src/rails/bank/sandbox-bank.js';
import type { FiatPayout } from '../../src/rails/port.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bank = iso20022Bank({
  mode: 'simulated',
  transport: folderTransport(mkdtempSync(join(tmpdir(), 'ramp-iso-'))),
  serves: sandboxServes,
  collectionAccount: sandboxCollectionAccount,
  debtorAccount: sandboxCollectionAccount,
});
const PAIN001 = { p: 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09' };

function pain001Of(payout: Partial<FiatPayout>) {
  const transferId = randomUUID();
  const ids = { orderId: randomUUID(), uetr: randomUUID(), createdAt: new Date('2026-11-28T15:00:00Z') };
  const file = bank.creditTransfer(
    {
      transferId,
      currency: 'eur',
      rails: 'sepa',
      amount: '91.15',
      accountType: 'iban',
      accountNumber: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      routingNumber: null,
      holderName: 'Ada Lovelace',
      ...payout,
    },
    ids,
  );
  const document = XmlDocument.fromString(file.content);
  const text = (path: string) => (document.get(path, PAIN001) as XmlElement | null)?.content ?? null;
  const read = {
    endToEndId: text('//p:CdtTrfTxInf/p:PmtId/p:EndToEndId'),
    uetr: text('//p:CdtTrfTxInf/p:PmtId/p:UETR'),
    amount: text('//p:CdtTrfTxInf/p:Amt/p:InstdAmt'),
    currency: (document.get('//p:InstdAmt/@Ccy', PAIN001) as XmlElement | null)?.content,
    debtorIban: text('//p:DbtrAcct/p:Id/p:IBAN'),
    debtorAccount: text('//p:DbtrAcct/p:Id/p:Othr/p:Id'),
    debtorRouting: text('//p:DbtrAgt/p:FinInstnId/p:ClrSysMmbId/p:MmbId'),
    creditorName: text('//p:Cdtr/p:Nm'),
    creditorIban: text('//p:CdtrAcct/p:Id/p:IBAN'),
    creditorAccount: text('//p:CdtrAcct/p:Id/p:Othr/p:Id'),
    creditorBic: text('//p:CdtrAgt/p:FinInstnId/p:BICFI'),
    creditorClearingSystem: text('//p:CdtrAgt/p:FinInstnId/p:ClrSysMmbId/p:ClrSysId/p:Cd'),
    creditorRouting: text('//p:CdtrAgt/p:FinInstnId/p:ClrSysMmbId/p:MmbId'),
    serviceLevel: text('//p:PmtTpInf/p:SvcLvl/p:Cd'),
  };
  document.dispose();
  return { file, transferId, ids, read };
}

const pain002 = (transactions: string, group = '') => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10">
  <CstmrPmtStsRpt>
    <GrpHdr><MsgId>STS-0001</MsgId><CreDtTm>2026-11-28T16:00:00Z</CreDtTm></GrpHdr>
    <OrgnlGrpInfAndSts><OrgnlMsgId>0f3c2a</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId>${group}</OrgnlGrpInfAndSts>
    ${transactions && `<OrgnlPmtInfAndSts><OrgnlPmtInfId>0f3c2a</OrgnlPmtInfId>${transactions}</OrgnlPmtInfAndSts>`}
  </CstmrPmtStsRpt>
</Document>`;

describe('pain.001.001.09, the credit transfer Ramp asks its bank to make', () => {
  it('pays a SEPA IBAN from Ramp’s IBAN: EndToEndId the transfer id without dashes, a UETR, the amount to the cent, schema-valid', () => {
    const { file, transferId, ids, read } = pain001Of({ amount: '91.1' });
    expect(() => assertValid(file.content, 'pain.001.001.09')).not.toThrow();
    expect(file.name).toBe(`pain.001-${ids.orderId}.xml`);
    expect(read).toMatchObject({
      endToEndId: transferId.replaceAll('-', ''),
      uetr: ids.uetr,
      amount: '91.10',
      currency: 'EUR',
      debtorIban: 'DE89370400440532013000',
      creditorName: 'Ada Lovelace',
      creditorIban: 'DE89370400440532013000',
      creditorBic: 'COBADEFFXXX',
      serviceLevel: 'SEPA',
    });
  });

  it('pays a US account by account and ABA routing number, from Ramp’s US account, schema-valid', () => {
    const { file, read } = pain001Of({
      currency: 'usd',
      rails: 'ach',
      amount: '250',
      accountType: 'us',
      accountNumber: '000987654321',
      bic: null,
      routingNumber: '026009593',
      holderName: 'Grace Hopper',
    });
    expect(() => assertValid(file.content, 'pain.001.001.09')).not.toThrow();
    expect(read).toMatchObject({
      amount: '250.00',
      currency: 'USD',
      debtorAccount: '000123456789',
      debtorRouting: '021000021',
      creditorAccount: '000987654321',
      creditorClearingSystem: 'USABA',
      creditorRouting: '026009593',
      creditorBic: null,
      serviceLevel: 'NURG',
    });
  });

  it('pays a SWIFT account by IBAN and BIC', () => {
    const { file, read } = pain001Of({ currency: 'aed', rails: 'swift', accountType: 'swift', accountNumber: 'AE070331234567890123456', bic: 'EBILAEADXXX' });
    expect(() => assertValid(file.content, 'pain.001.001.09')).not.toThrow();
    expect(read).toMatchObject({ creditorIban: 'AE070331234567890123456', creditorBic: 'EBILAEADXXX', currency: 'AED', serviceLevel: 'URGP' });
  });

  it('pays a Fedwire transfer by account and ABA routing number, schema-valid', () => {
    const { file, read } = pain001Of({
      currency: 'usd',
      rails: 'wire',
      amount: '12500.5',
      accountType: 'us',
      accountNumber: '4400113377',
      bic: null,
      routingNumber: '121000248',
      holderName: 'Hopper Industries LLC',
    });
    expect(() => assertValid(file.content, 'pain.001.001.09')).not.toThrow();
    expect(read).toMatchObject({
      amount: '12500.50',
      currency: 'USD',
      creditorAccount: '4400113377',
      creditorClearingSystem: 'USABA',
      creditorRouting: '121000248',
      creditorBic: null,
    });
  });

  it('refuses an amount finer than the currency’s minor unit rather than round it', () => {
    expect(() => pain001Of({ amount: '91.155' })).toThrow(/finer than the currency's minor unit/);
  });

  it('refuses to write a file its schema would refuse (a holder name longer than 140 characters)', () => {
    expect(() => pain001Of({ holderName: 'A'.repeat(141) })).toThrow(BankFileRefused);
  });
});

describe('pain.002.001.10, the bank’s status report', () => {
  it('reads ACSC and ACCC as accepted and RJCT with its ISO reason code and words', () => {
    const report = readStatusReport(
      pain002(`
      <TxInfAndSts><OrgnlEndToEndId>E2E1</OrgnlEndToEndId><TxSts>ACSC</TxSts></TxInfAndSts>
      <TxInfAndSts><OrgnlEndToEndId>E2E2</OrgnlEndToEndId><OrgnlUETR>8a562c67-ca16-48ba-b074-65581be6f001</OrgnlUETR><TxSts>ACCC</TxSts></TxInfAndSts>
      <TxInfAndSts><OrgnlEndToEndId>E2E3</OrgnlEndToEndId><TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>AC01</Cd></Rsn></StsRsnInf></TxInfAndSts>
      <TxInfAndSts><OrgnlEndToEndId>E2E4</OrgnlEndToEndId><TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>ZZ99</Cd></Rsn><AddtlInf>Account frozen by order</AddtlInf></StsRsnInf></TxInfAndSts>
      <TxInfAndSts><OrgnlEndToEndId>E2E5</OrgnlEndToEndId><TxSts>ACSP</TxSts></TxInfAndSts>`),
    );
    expect(report.messageId).toBe('STS-0001');
    expect(report.statuses.map((s) => [s.key, s.endToEndId, s.uetr, s.status])).toEqual([
      ['STS-0001/E2E1', 'E2E1', null, { kind: 'accepted', code: 'ACSC' }],
      ['STS-0001/E2E2', 'E2E2', '8a562c67-ca16-48ba-b074-65581be6f001', { kind: 'accepted', code: 'ACCC' }],
      ['STS-0001/E2E3', 'E2E3', null, { kind: 'rejected', reasonCode: 'AC01', reasonWords: 'incorrect account number' }],
      ['STS-0001/E2E4', 'E2E4', null, { kind: 'rejected', reasonCode: 'ZZ99', reasonWords: 'Account frozen by order' }],
      ['STS-0001/E2E5', 'E2E5', null, { kind: 'pending', code: 'ACSP' }],
    ]);
  });

  it('reads a group status without transactions as the status of the whole original file', () => {
    const report = readStatusReport(pain002('', '<GrpSts>RJCT</GrpSts><StsRsnInf><Rsn><Cd>FF01</Cd></Rsn></StsRsnInf>'));
    expect(report.statuses).toEqual([
      {
        key: 'STS-0001/group',
        originalMessageId: '0f3c2a',
        endToEndId: null,
        uetr: null,
        status: { kind: 'rejected', reasonCode: 'FF01', reasonWords: 'invalid file format' },
      },
    ]);
  });

  it('reads a status report in the German banks’ format, published as a sample: its RJCT AC01 with its words', () => {
    // test/fixtures/iso20022/README.md says where it comes from; it is read unchanged.
    const sample = readFileSync(new URL('../fixtures/iso20022/pain.002.001.10-german-sepa-reject.xml', import.meta.url), 'utf8');
    expect(() => assertValid(sample, 'pain.002.001.10')).not.toThrow();
    expect(readStatusReport(sample)).toEqual({
      messageId: 'Message-ID-4712',
      statuses: [
        {
          key: 'Message-ID-4712/OriginatorID1234',
          originalMessageId: 'Message-ID-4711',
          endToEndId: 'OriginatorID1234',
          uetr: null,
          status: { kind: 'rejected', reasonCode: 'AC01', reasonWords: 'incorrect account number' },
        },
      ],
    });
  });

  it('refuses a file that is not well-formed, whole', () => {
    expect(() => readStatusReport(pain002('<TxInfAndSts><OrgnlEndToEndId>E2E1</OrgnlEndToEndId><TxSts>ACSC</TxSts>'))).toThrow(/not well-formed XML/);
  });

  it('refuses a well-formed file its schema does not allow (an unknown status code), whole, with the schema’s words', () => {
    const invalid = pain002(`
      <TxInfAndSts><OrgnlEndToEndId>E2E1</OrgnlEndToEndId><TxSts>ACSC</TxSts></TxInfAndSts>
      <TxInfAndSts><OrgnlEndToEndId>E2E2</OrgnlEndToEndId><TxSts>NOPE!</TxSts></TxInfAndSts>`);
    expect(() => readStatusReport(invalid)).toThrow(/not valid against the pain\.002\.001\.10 schema: .*TxSts/);
  });

  it('refuses another message in its place (a pain.001 dropped in the inbox)', () => {
    const { file } = pain001Of({});
    expect(() => readStatusReport(file.content)).toThrow(/not a pain\.002\.001\.10 message/);
  });
});
