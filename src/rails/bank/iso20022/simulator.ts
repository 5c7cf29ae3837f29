import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { XmlElement } from 'libxml2-wasm';
import { BankFileRefused } from '../../port.js';
import { paymentStatusReport } from './pain002.js';
import { namespaceOf, parseValid } from './schemas.js';

const NS = { p: namespaceOf('pain.001.001.09') };

/** The sandbox's bank, on the other side of BANK_ISO20022_DIR: answers each pain.001 Ramp wrote. */
export interface BankSimulator {
  /** Takes up to `limit` files from outbox/ and answers each in inbox/; returns how many it took. */
  answer(limit: number): Promise<number>;
}

/**
 * A bank that settles every credit transfer it is sent (ACSC), as the sandbox's in-process bank does, but through the
 * same files a real bank exchanges; a file it cannot read it rejects whole (group RJCT, FF01). What it took moves to
 * `bank/`, as a bank's host-to-host client removes what it fetched. BANK_SIMULATOR=off leaves all of it to a test.
 */
export function bankSimulator(dir: string): BankSimulator {
  mkdirSync(join(dir, 'bank'), { recursive: true });
  return {
    async answer(limit) {
      const names = (await readdir(join(dir, 'outbox'))).filter((name) => !name.startsWith('.')).sort();
      for (const name of names.slice(0, limit)) {
        const content = await readFile(join(dir, 'outbox', name), 'utf8');
        await deliver(dir, answerTo(content));
        await rename(join(dir, 'outbox', name), join(dir, 'bank', name));
      }
      return Math.min(names.length, limit);
    },
  };
}

function answerTo(content: string): string {
  const id = `SIM${randomUUID().replaceAll('-', '').slice(0, 29)}`;
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
async function deliver(dir: string, report: string): Promise<void> {
  const name = `pain.002-${randomBytes(8).toString('hex')}.xml`;
  await writeFile(join(dir, 'inbox', `.${name}`), report, 'utf8');
  await rename(join(dir, 'inbox', `.${name}`), join(dir, 'inbox', name));
}
