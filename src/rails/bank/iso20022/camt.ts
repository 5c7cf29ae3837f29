import type { XmlElement } from 'libxml2-wasm';
import type { BankEntry } from '../../port.js';
import { reasonWords } from './reasons.js';
import { BankFileRefused } from './schemas.js';

/**
 * The entries of a camt.054 notification and a camt.053 statement: both messages carry the same ReportEntry10 (and
 * the same account, parties and remittance blocks), only under another namespace, so one reader serves both.
 */
export type Namespaces = { c: string };

function text(element: XmlElement, path: string, ns: Namespaces): string | null {
  const value = (element.get(path, ns) as XmlElement | null)?.content.trim();
  return value ? value : null;
}

/** An account's IBAN, else its other identification (a US account number, a virtual account's number). */
export function accountId(element: XmlElement, path: string, ns: Namespaces): string | null {
  return text(element, `${path}/c:Id/c:IBAN`, ns) ?? text(element, `${path}/c:Id/c:Othr/c:Id`, ns);
}

/**
 * The entries under `report` (a Ntfctn or a Stmt) of the account `account`. An entry without the bank's reference
 * (AcctSvcrRef) nor its own (NtryRef) could never be applied only once: the whole file is refused.
 */
export function readEntries(report: XmlElement, account: string | null, ns: Namespaces, messageId: string): BankEntry[] {
  return (report.find('c:Ntry', ns) as XmlElement[]).map((entry, index) => {
    const reference = text(entry, 'c:AcctSvcrRef', ns) ?? text(entry, 'c:NtryRef', ns);
    if (!reference) throw new BankFileRefused(`entry ${index + 1} of ${messageId} has neither AcctSvcrRef nor NtryRef`);
    const amount = entry.get('c:Amt', ns) as XmlElement;
    const transactions = entry.find('c:NtryDtls/c:TxDtls', ns) as XmlElement[];
    const first = transactions[0];
    const detail = (path: string) => (first ? text(first, path, ns) : null);
    const remittance = first ? (first.find('c:RmtInf/c:Ustrd', ns) as XmlElement[]).map((line) => line.content.trim()).join(' ') : '';
    return {
      reference,
      direction: text(entry, 'c:CdtDbtInd', ns) === 'CRDT' ? 'credit' : 'debit',
      amount: amount.content.trim(),
      currency: amount.attr('Ccy')!.value,
      status: text(entry, 'c:Sts/c:Cd', ns) ?? text(entry, 'c:Sts/c:Prtry', ns) ?? 'BOOK',
      bookingDate: text(entry, 'c:BookgDt/c:Dt', ns) ?? text(entry, 'c:BookgDt/c:DtTm', ns)?.slice(0, 10) ?? null,
      account,
      creditorAccount: first ? accountId(first, 'c:RltdPties/c:CdtrAcct', ns) : null,
      remittance: remittance || null,
      endToEndId: detail('c:Refs/c:EndToEndId'),
      uetr: detail('c:Refs/c:UETR'),
      returned: first?.get('c:RtrInf', ns) ? returnOf(first, ns) : null,
      transactions: Math.max(transactions.length, 1),
    } satisfies BankEntry;
  });
}

function returnOf(transaction: XmlElement, ns: Namespaces): BankEntry['returned'] {
  const code = text(transaction, 'c:RtrInf/c:Rsn/c:Cd', ns) ?? text(transaction, 'c:RtrInf/c:Rsn/c:Prtry', ns) ?? 'NARR';
  const bankWords = (transaction.find('c:RtrInf/c:AddtlInf', ns) as XmlElement[]).map((line) => line.content.trim()).join(' ') || null;
  return { reasonCode: code, reasonWords: reasonWords(code, bankWords) };
}

/** One entry as a bank books it, for a file the simulator (or a test) writes. */
export interface EntryToBook {
  reference: string;
  direction: 'credit' | 'debit';
  amount: string;
  currency: string;
  bookingDate: string;
  /** The account credited, when it is not the report's own (a virtual account's number or IBAN). */
  creditorAccount?: string;
  remittance?: string;
  endToEndId?: string;
  uetr?: string;
  /** A returned payment's ISO reason code. */
  returnReason?: string;
}

/** An account as ISO 20022 identifies it: an IBAN when it is one, else its other identification. */
export const accountOf = (id: string) => (/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(id) ? { Id: { IBAN: id } } : { Id: { Othr: { Id: id } } });

/** The ReportEntry10 of `entry`, as xmlbuilder2 writes it (in the schema's order). */
export function entryElement(entry: EntryToBook) {
  const credit = entry.direction === 'credit';
  const refs = {
    EndToEndId: entry.endToEndId ?? 'NOTPROVIDED',
    ...(entry.uetr && { UETR: entry.uetr }),
  };
  return {
    NtryRef: entry.reference,
    Amt: { '@Ccy': entry.currency.toUpperCase(), '#': entry.amount },
    CdtDbtInd: credit ? 'CRDT' : 'DBIT',
    Sts: { Cd: 'BOOK' },
    BookgDt: { Dt: entry.bookingDate },
    ValDt: { Dt: entry.bookingDate },
    AcctSvcrRef: entry.reference,
    // Payments: a credit transfer received (RCDT) or issued (ICDT); an issued one coming back is ICDT's return (RRTN).
    BkTxCd: { Domn: { Cd: 'PMNT', Fmly: entry.returnReason ? { Cd: 'ICDT', SubFmlyCd: 'RRTN' } : { Cd: credit ? 'RCDT' : 'ICDT', SubFmlyCd: 'ESCT' } } },
    NtryDtls: {
      TxDtls: {
        Refs: refs,
        Amt: { '@Ccy': entry.currency.toUpperCase(), '#': entry.amount },
        CdtDbtInd: credit ? 'CRDT' : 'DBIT',
        ...(entry.creditorAccount && { RltdPties: { CdtrAcct: accountOf(entry.creditorAccount) } }),
        ...(entry.remittance && { RmtInf: { Ustrd: entry.remittance } }),
        ...(entry.returnReason && { RtrInf: { Rsn: { Cd: entry.returnReason } } }),
      },
    },
  };
}
