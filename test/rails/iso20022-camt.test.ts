import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMessage } from '../../src/rails/bank/iso20022/bank.js';
import { bankToCustomerStatement } from '../../src/rails/bank/iso20022/camt053.js';
import { debitCreditNotification } from '../../src/rails/bank/iso20022/camt054.js';
import { BankFileRefused } from '../../src/rails/port.js';

/** The camt.054 and camt.053 readers, on a bank's published sample and on what the sandbox's bank simulator writes. */
const sample = readFileSync(new URL('../fixtures/iso20022/postfinance-camt.054.001.08.xml', import.meta.url), 'utf8');
const statementSample = readFileSync(new URL('../fixtures/iso20022/ubs-camt.053.001.08.xml', import.meta.url), 'utf8');
const refusal = (xml: string) => {
  try {
    readMessage(xml);
  } catch (error) {
    if (error instanceof BankFileRefused) return error.reason;
    throw error;
  }
  return null;
};

describe('a bank’s published camt.054.001.08 (PostFinance)', () => {
  it('is refused whole as published: its UETR is one character short of a UUID', () => {
    expect(refusal(sample)).toMatch(/^not valid against the camt\.054\.001\.08 schema: .*UETR/);
  });

  it('reads, its UETR completed: the booked credit, its references, accounts and remittance lines', () => {
    const message = readMessage(sample.replace('d645a7276b0<', 'd645a7276b00<'));
    expect(message).toEqual({
      kind: 'notification',
      notification: {
        messageId: '20200618375204295372463',
        entries: [
          {
            // The bank's own reference wins over the entry's.
            reference: '1000000000000000',
            direction: 'credit',
            amount: '501.05',
            currency: 'CHF',
            status: 'BOOK',
            bookingDate: '2022-03-08',
            account: 'CH2909000000250094239',
            creditorAccount: 'CH2909000000250094239',
            remittance: 'Muster Musterfile',
            endToEndId: 'NOTPROVIDED',
            uetr: 'b009c997-97b3-4a9c-803c-d645a7276b00',
            returned: null,
            transactions: 1,
          },
        ],
      },
    });
  });
});

describe('a bank’s published camt.053.001.08 (UBS, Swiss Payment Standards 2.0)', () => {
  it('is refused whole as published: its one UETR is a version 5 UUID, where the schema takes version 4 only', () => {
    expect(refusal(statementSample)).toMatch(/^not valid against the camt\.053\.001\.08 schema: .*UETR.*5e3b/);
  });

  it('reads, that UETR made version 4: the day, the account and its three entries with their references', () => {
    const message = readMessage(statementSample.replace('-5e3b-', '-4e3b-'));
    const entry = { status: 'BOOK', bookingDate: '2023-06-20', account: 'CH1111111111111111111', returned: null, transactions: 1 };
    expect(message).toEqual({
      kind: 'statement',
      statement: {
        messageId: 'R39B4SA289HMZ6XA',
        statements: [
          {
            id: 'R30B4SA880HMZ9XA',
            account: 'CH1111111111111111111',
            from: '2023-06-20',
            to: '2023-06-20',
            entries: [
              {
                ...entry,
                reference: '9999171ZC0173078',
                direction: 'credit',
                amount: '474.4',
                currency: 'CHF',
                creditorAccount: null,
                remittance: 'INVOICE R77561',
                endToEndId: '80000004540000100095',
                uetr: 'd0826d0f-a005-4e3b-b3dc-54da4ac7f0d0',
              },
              // A structured creditor reference (SCOR) is no unstructured remittance line: Ramp matches deposits by `Ustrd`.
              {
                ...entry,
                reference: '2022172PH0003127',
                direction: 'credit',
                amount: '88.85',
                currency: 'CHF',
                creditorAccount: null,
                remittance: null,
                endToEndId: '435A9287E088BDB1D97FAABD181C70C8',
                uetr: null,
              },
              {
                ...entry,
                reference: '0124571DN6195349',
                direction: 'debit',
                amount: '20.97',
                currency: 'EUR',
                creditorAccount: 'CH2222222222222222222',
                remittance: null,
                endToEndId: '1208481',
                uetr: null,
              },
            ],
          },
        ],
      },
    });
  });
});

describe('camt.054 and camt.053 as the simulator writes them', () => {
  const day = '2026-11-28';
  it('round-trips a notification with a return, and refuses an entry without any reference', () => {
    const xml = debitCreditNotification({
      messageId: 'NTF-1',
      createdAt: new Date('2026-11-28T10:00:00Z'),
      account: '123456789',
      entries: [{ reference: 'R-1', direction: 'credit', amount: '10.50', currency: 'usd', bookingDate: day, endToEndId: 'E2E', returnReason: 'AC04' }],
    });
    const message = readMessage(xml);
    expect(message.kind).toBe('notification');
    const [entry] = message.kind === 'notification' ? message.notification.entries : [];
    expect(entry).toMatchObject({
      reference: 'R-1',
      account: '123456789',
      amount: '10.50',
      currency: 'USD',
      endToEndId: 'E2E',
      returned: { reasonCode: 'AC04', reasonWords: 'closed account number' },
    });
    const unreferenced = xml.replace(/<NtryRef>R-1<\/NtryRef>/, '').replace(/<AcctSvcrRef>R-1<\/AcctSvcrRef>/, '');
    expect(refusal(unreferenced)).toBe('entry 1 of NTF-1 has neither AcctSvcrRef nor NtryRef');
  });

  it('reads a statement’s account, days and entries', () => {
    const xml = bankToCustomerStatement({
      messageId: 'STMT-1',
      createdAt: new Date('2026-11-28T23:00:00Z'),
      account: 'DE89370400440532013000',
      currency: 'eur',
      date: day,
      entries: [
        { reference: 'C-1', direction: 'credit', amount: '100.00', currency: 'eur', bookingDate: day, remittance: 'RAMPABCDEFGHJKLM' },
        { reference: 'D-1', direction: 'debit', amount: '40.00', currency: 'eur', bookingDate: day, endToEndId: 'E2E-1' },
      ],
    });
    expect(xml).toContain('<Cd>CLBD</Cd>');
    expect(readMessage(xml)).toMatchObject({
      kind: 'statement',
      statement: {
        messageId: 'STMT-1',
        statements: [
          {
            id: 'STMT-1',
            account: 'DE89370400440532013000',
            from: day,
            to: day,
            entries: [
              { reference: 'C-1', direction: 'credit', remittance: 'RAMPABCDEFGHJKLM' },
              { reference: 'D-1', direction: 'debit', endToEndId: 'E2E-1' },
            ],
          },
        ],
      },
    });
  });

  it('refuses a file of another message whole', () => {
    expect(refusal('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08"/>')).toBe(
      'not a pain.002.001.10 or camt.054.001.08 or camt.053.001.08 message: its root is {urn:iso:std:iso:20022:tech:xsd:camt.052.001.08}Document',
    );
  });
});
