import type { XmlDocument, XmlElement } from 'libxml2-wasm';
import { create } from 'xmlbuilder2';
import type { BankNotification } from '../../port.js';
import { type EntryToBook, accountId, accountOf, entryElement, readEntries } from './camt.js';
import { assertValid, namespaceOf } from './schemas.js';

export const CAMT054 = 'camt.054.001.08';
const NS = { c: namespaceOf(CAMT054) };

/** Reads a camt.054.001.08 debit and credit notification Ramp's caller already validated (schemas.ts parseValidOf). */
export function readNotification(document: XmlDocument): BankNotification {
  const root = document.get('/c:Document/c:BkToCstmrDbtCdtNtfctn', NS) as XmlElement;
  const messageId = (root.get('c:GrpHdr/c:MsgId', NS) as XmlElement).content.trim();
  const entries = (root.find('c:Ntfctn', NS) as XmlElement[]).flatMap((notification) =>
    readEntries(notification, accountId(notification, 'c:Acct', NS), NS, messageId),
  );
  return { messageId, entries };
}

/**
 * A camt.054.001.08 notifying `entries` on `account`, validated before it is returned: what the sandbox's bank
 * simulator books, in the form a bank would.
 */
export function debitCreditNotification(notification: { messageId: string; createdAt: Date; account: string; entries: EntryToBook[] }): string {
  const at = `${notification.createdAt.toISOString().slice(0, 19)}Z`;
  const xml = create(
    { version: '1.0', encoding: 'UTF-8' },
    {
      Document: {
        '@xmlns': NS.c,
        BkToCstmrDbtCdtNtfctn: {
          GrpHdr: { MsgId: notification.messageId, CreDtTm: at },
          Ntfctn: {
            Id: notification.messageId,
            CreDtTm: at,
            Acct: accountOf(notification.account),
            Ntry: notification.entries.map(entryElement),
          },
        },
      },
    },
  ).end({ prettyPrint: true });
  assertValid(xml, CAMT054);
  return xml;
}
