import type { XmlDocument, XmlElement } from 'libxml2-wasm';
import { create } from 'xmlbuilder2';
import { Decimal } from '../../../domain/money.js';
import type { BankStatement } from '../../port.js';
import { type EntryToBook, accountId, accountOf, entryElement, readEntries } from './camt.js';
import { assertValid, namespaceOf } from './schemas.js';

export const CAMT053 = 'camt.053.001.08';
const NS = { c: namespaceOf(CAMT053) };

const dateOf = (element: XmlElement, path: string) => (element.get(path, NS) as XmlElement | null)?.content.trim().slice(0, 10) ?? null;

/** Reads a camt.053.001.08 end-of-day statement Ramp's caller already validated (schemas.ts parseValidOf). */
export function readStatement(document: XmlDocument): BankStatement {
  const root = document.get('/c:Document/c:BkToCstmrStmt', NS) as XmlElement;
  const messageId = (root.get('c:GrpHdr/c:MsgId', NS) as XmlElement).content.trim();
  const statements = (root.find('c:Stmt', NS) as XmlElement[]).map((statement) => {
    const entries = readEntries(statement, accountId(statement, 'c:Acct', NS), NS, messageId);
    const booked = entries
      .map((entry) => entry.bookingDate)
      .filter((date): date is string => date !== null)
      .sort();
    return {
      id: (statement.get('c:Id', NS) as XmlElement).content.trim(),
      account: accountId(statement, 'c:Acct', NS),
      from: dateOf(statement, 'c:FrToDt/c:FrDtTm') ?? booked[0] ?? null,
      to: dateOf(statement, 'c:FrToDt/c:ToDtTm') ?? booked.at(-1) ?? null,
      entries,
    };
  });
  return { messageId, statements };
}

/**
 * A camt.053.001.08 statement of `entries` on `account` for the day `date`, validated before it is returned: a bank's
 * end-of-day file, in the form a bank would write it (its balances are the day's movements from a zero opening).
 */
export function bankToCustomerStatement(statement: {
  messageId: string;
  createdAt: Date;
  account: string;
  currency: string;
  date: string;
  entries: EntryToBook[];
}): string {
  const at = `${statement.createdAt.toISOString().slice(0, 19)}Z`;
  const net = statement.entries.reduce((sum, entry) => (entry.direction === 'credit' ? sum.plus(entry.amount) : sum.minus(entry.amount)), new Decimal(0));
  const balance = (code: string, amount: Decimal) => ({
    Tp: { CdOrPrtry: { Cd: code } },
    Amt: { '@Ccy': statement.currency.toUpperCase(), '#': amount.abs().toFixed(2) },
    CdtDbtInd: amount.isNegative() ? 'DBIT' : 'CRDT',
    Dt: { Dt: statement.date },
  });
  const xml = create(
    { version: '1.0', encoding: 'UTF-8' },
    {
      Document: {
        '@xmlns': NS.c,
        BkToCstmrStmt: {
          GrpHdr: { MsgId: statement.messageId, CreDtTm: at },
          Stmt: {
            Id: statement.messageId,
            CreDtTm: at,
            FrToDt: { FrDtTm: `${statement.date}T00:00:00Z`, ToDtTm: `${statement.date}T23:59:59Z` },
            Acct: { ...accountOf(statement.account), Ccy: statement.currency.toUpperCase() },
            Bal: [balance('OPBD', new Decimal(0)), balance('CLBD', net)],
            Ntry: statement.entries.map(entryElement),
          },
        },
      },
    },
  ).end({ prettyPrint: true });
  assertValid(xml, CAMT053);
  return xml;
}
