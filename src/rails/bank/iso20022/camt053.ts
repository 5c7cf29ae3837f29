import type { XmlDocument, XmlElement } from 'libxml2-wasm';
import type { BankStatement } from '../../port.js';
import { accountId, readEntries } from './camt.js';
import { namespaceOf } from './schemas.js';

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
