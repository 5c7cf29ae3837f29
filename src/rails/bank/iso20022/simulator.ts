import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { XmlElement } from 'libxml2-wasm';
import { BankFileRefused } from '../../port.js';
import type { EntryToBook } from './camt.js';
import { debitCreditNotification } from './camt054.js';
import { paymentStatusReport } from './pain002.js';
import { namespaceOf, parseValid } from './schemas.js';

const NS = { p: namespaceOf('pain.001.001.09') };

/** The sandbox's bank, on the other side of BANK_ISO20022_DIR: answers each pain.001 Ramp wrote. */
export interface BankSimulator {
  /** Takes up to `limit` files from outbox/ and answers each in inbox/; returns how many it took. */
  answer(limit: number): Promise<number>;
  /**
   * Books money a payer sent to Ramp's `account` (or to a virtual account within it, `creditorAccount`): a camt.054
   * credit in inbox/, as the bank notifies one. Returns the entry's reference.
   */
  bookCredit(credit: { account: string; amount: string; currency: string; remittance?: string; creditorAccount?: string }): Promise<string>;
}

/**
 * A bank that settles every credit transfer it is sent (ACSC) and books its debit (a camt.054), as the sandbox's
 * in-process bank does, but through the same files a real bank exchanges; a file it cannot read it rejects whole
 * (group RJCT, FF01). It books the credits the sandbox's simulated fiat deposits pay in, as camt.054 credits too. What it took moves to
 * `bank/`, as a bank's host-to-host client removes what it fetched. BANK_SIMULATOR=off leaves all of it to a test.
 */
export function bankSimulator(dir: string): BankSimulator {
  mkdirSync(join(dir, 'bank'), { recursive: true });
  return {
    async answer(limit) {
      const names = (await readdir(join(dir, 'outbox'))).filter((name) => !name.startsWith('.')).sort();
      for (const name of names.slice(0, limit)) {
        const content = await readFile(join(dir, 'outbox', name), 'utf8');
        await deliver(dir, 'pain.002', answerTo(content));
        // The payment leaves Ramp's account: the bank books the debit and notifies it.
        const debits = debitsOf(content);
        if (debits) await deliver(dir, 'camt.054', debitCreditNotification({ messageId: simulatedId(), createdAt: new Date(), ...debits }));
        await rename(join(dir, 'outbox', name), join(dir, 'bank', name));
      }
      return Math.min(names.length, limit);
    },

    async bookCredit({ account, ...entry }) {
      const reference = simulatedId();
      const booked = { reference, direction: 'credit' as const, bookingDate: new Date().toISOString().slice(0, 10), ...entry };
      await deliver(dir, 'camt.054', debitCreditNotification({ messageId: simulatedId(), createdAt: new Date(), account, entries: [booked] }));
      return reference;
    },
  };
}

/** A bank's own reference: unique, within the 35 characters ISO 20022 allows. */
const simulatedId = () => `SIM${randomUUID().replaceAll('-', '').slice(0, 29)}`;

/** The debit entries a pain.001 books on its debtor's account, one per credit transfer; null for a file it rejects. */
function debitsOf(content: string): { account: string; entries: EntryToBook[] } | null {
  let document: ReturnType<typeof parseValid>;
  try {
    document = parseValid(content, 'pain.001.001.09');
  } catch (error) {
    if (error instanceof BankFileRefused) return null;
    throw error;
  }
  try {
    const text = (path: string, at: XmlElement = document.root) => (at.get(path, NS) as XmlElement | null)?.content.trim() ?? null;
    const account = text('//p:DbtrAcct/p:Id/p:IBAN') ?? text('//p:DbtrAcct/p:Id/p:Othr/p:Id');
    if (!account) return null;
    const bookingDate = new Date().toISOString().slice(0, 10);
    const entries = (document.find('//p:CdtTrfTxInf', NS) as XmlElement[]).map((transaction) => {
      const amount = transaction.get('p:Amt/p:InstdAmt', NS) as XmlElement;
      return {
        reference: simulatedId(),
        direction: 'debit' as const,
        amount: amount.content.trim(),
        currency: amount.attr('Ccy')!.value,
        bookingDate,
        endToEndId: text('p:PmtId/p:EndToEndId', transaction) ?? undefined,
        uetr: text('p:PmtId/p:UETR', transaction) ?? undefined,
      };
    });
    return { account, entries };
  } finally {
    document.dispose();
  }
}

function answerTo(content: string): string {
  const id = simulatedId();
  let document: ReturnType<typeof parseValid>;
  try {
    document = parseValid(content, 'pain.001.001.09');
  } catch (error) {
    if (!(error instanceof BankFileRefused)) throw error;
    return paymentStatusReport({ messageId: id, createdAt: new Date(), originalMessageId: 'UNREADABLE', transactions: [] });
  }
  try {
    const text = (element: XmlElement | null) => element?.content.trim() ?? null;
    const transactions = (document.find('//p:CdtTrfTxInf', NS) as XmlElement[]).map((transaction) => ({
      endToEndId: text(transaction.get('p:PmtId/p:EndToEndId', NS) as XmlElement)!,
      uetr: text(transaction.get('p:PmtId/p:UETR', NS) as XmlElement | null),
      code: 'ACSC',
    }));
    const originalMessageId = text(document.get('//p:GrpHdr/p:MsgId', NS) as XmlElement)!;
    return paymentStatusReport({ messageId: id, createdAt: new Date(), originalMessageId, transactions });
  } finally {
    document.dispose();
  }
}

/** Into inbox/ whole: written aside under a hidden name, then renamed in. */
async function deliver(dir: string, kind: 'pain.002' | 'camt.054', report: string): Promise<void> {
  const name = `${kind}-${randomBytes(8).toString('hex')}.xml`;
  await writeFile(join(dir, 'inbox', `.${name}`), report, 'utf8');
  await rename(join(dir, 'inbox', `.${name}`), join(dir, 'inbox', name));
}
