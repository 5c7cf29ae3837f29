import type { XmlDocument, XmlElement } from 'libxml2-wasm';
import { create } from 'xmlbuilder2';
import type { PaymentStatus, StatusOfPayment, StatusReport } from '../../port.js';
import { reasonWords } from './reasons.js';
import { BankFileRefused, namespaceOf, parseValid } from './schemas.js';

const MESSAGE = 'pain.002.001.10';
const NS = { p: namespaceOf(MESSAGE) };

/**
 * Reads a pain.002.001.10 customer payment status report, validated against its schema first: a file that is not
 * well-formed or not valid is refused whole (BankFileRefused), never half-read.
 */
export function readStatusReport(xml: string): StatusReport {
  const document = parseValid(xml, MESSAGE);
  try {
    return statusReportOf(document);
  } finally {
    document.dispose();
  }
}

/** The statuses of a pain.002.001.10 already validated (schemas.ts parseValidOf). */
export function statusReportOf(document: XmlDocument): StatusReport {
  const report = document.get('/p:Document/p:CstmrPmtStsRpt', NS) as XmlElement;
  const messageId = text(report, 'p:GrpHdr/p:MsgId')!;
  const originalMessageId = text(report, 'p:OrgnlGrpInfAndSts/p:OrgnlMsgId')!;
  const statuses: StatusOfPayment[] = [];
  const groupStatus = text(report, 'p:OrgnlGrpInfAndSts/p:GrpSts');
  const transactions = report.find('p:OrgnlPmtInfAndSts/p:TxInfAndSts', NS) as XmlElement[];
  // A group status without transactions speaks for the whole file (a file rejected for its form, say).
  if (groupStatus && transactions.length === 0) {
    const group = report.get('p:OrgnlGrpInfAndSts', NS) as XmlElement;
    statuses.push({ key: `${messageId}/group`, originalMessageId, endToEndId: null, uetr: null, status: statusOf(groupStatus, group) });
  }
  transactions.forEach((transaction, index) => {
    const code = text(transaction, 'p:TxSts');
    if (!code) throw new BankFileRefused(`transaction ${index + 1} of status report ${messageId} has no TxSts`);
    const endToEndId = text(transaction, 'p:OrgnlEndToEndId');
    if (!endToEndId) throw new BankFileRefused(`transaction ${index + 1} of status report ${messageId} has no OrgnlEndToEndId`);
    statuses.push({
      key: `${messageId}/${endToEndId}`,
      originalMessageId,
      endToEndId,
      uetr: text(transaction, 'p:OrgnlUETR'),
      status: statusOf(code, transaction),
    });
  });
  return { messageId, statuses };
}

/** ACSC and ACCC mean the money left and reached the creditor's bank; RJCT carries its reason; anything else is on its way. */
function statusOf(code: string, element: XmlElement): PaymentStatus {
  if (code === 'ACSC' || code === 'ACCC') return { kind: 'accepted', code };
  if (code !== 'RJCT') return { kind: 'pending', code };
  const reasonCode = text(element, 'p:StsRsnInf/p:Rsn/p:Cd') ?? text(element, 'p:StsRsnInf/p:Rsn/p:Prtry') ?? 'NARR';
  const bankWords = (element.find('p:StsRsnInf/p:AddtlInf', NS) as XmlElement[]).map((line) => line.content.trim()).join(' ') || null;
  return { kind: 'rejected', reasonCode, reasonWords: reasonWords(reasonCode, bankWords) };
}

function text(element: XmlElement, path: string): string | null {
  const found = element.get(path, NS);
  const value = found?.content.trim();
  return value ? value : null;
}

/** What a status report says of one credit transfer of the original file. */
export interface TransactionStatus {
  endToEndId: string;
  uetr: string | null;
  /** ACSC, ACCC, RJCT … */
  code: string;
  /** The ISO reason code of a rejection. */
  reasonCode?: string;
}

/**
 * A pain.002.001.10 reporting on the transactions of one pain.001, validated before it is returned: what the sandbox's
 * bank simulator answers with, in the form a bank would.
 */
export function paymentStatusReport(report: { messageId: string; createdAt: Date; originalMessageId: string; transactions: TransactionStatus[] }): string {
  const xml = create(
    { version: '1.0', encoding: 'UTF-8' },
    {
      Document: {
        '@xmlns': namespaceOf(MESSAGE),
        CstmrPmtStsRpt: {
          GrpHdr: { MsgId: report.messageId, CreDtTm: `${report.createdAt.toISOString().slice(0, 19)}Z` },
          OrgnlGrpInfAndSts: { OrgnlMsgId: report.originalMessageId, OrgnlMsgNmId: 'pain.001.001.09' },
          OrgnlPmtInfAndSts: {
            OrgnlPmtInfId: report.originalMessageId,
            TxInfAndSts: report.transactions.map((transaction) => ({
              OrgnlEndToEndId: transaction.endToEndId,
              ...(transaction.uetr && { OrgnlUETR: transaction.uetr }),
              TxSts: transaction.code,
              ...(transaction.reasonCode && { StsRsnInf: { Rsn: { Cd: transaction.reasonCode } } }),
            })),
          },
        },
      },
    },
  ).end({ prettyPrint: true });
  parseValid(xml, MESSAGE).dispose();
  return xml;
}
