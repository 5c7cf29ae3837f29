import { isValidIban } from '../../../domain/identifiers/bank.js';
import type { FiatCurrency, PaymentRails } from '../../../domain/money.js';
import type { BankMessage, BankTransport, CollectionAccount, FiatPayout, Iso20022Bank, RailsMode, VirtualAccountNumbers } from '../../port.js';
import { CAMT053, readStatement } from './camt053.js';
import { CAMT054, readNotification } from './camt054.js';
import { type AccountParty, creditTransferInitiation } from './pain001.js';
import { readStatusReport, statusReportOf } from './pain002.js';
import { parseValidOf } from './schemas.js';

export interface Iso20022BankOptions {
  mode: RailsMode;
  /** How files travel to and from the bank: the folder of BANK_ISO20022_DIR today (folder.ts); SFTP or an HTTP API later. */
  transport: BankTransport;
  /** Which currencies over which rails this bank account moves. */
  serves(currency: FiatCurrency, rails: PaymentRails): boolean;
  /** Where on-ramp customers pay in. */
  collectionAccount(currency: FiatCurrency, rails: PaymentRails): CollectionAccount;
  /** Ramp's own account that pays a payout in `currency` over `rails`: the pain.001's debtor. */
  debtorAccount(currency: FiatCurrency, rails: PaymentRails): CollectionAccount;
  /** The range the bank reserved for virtual accounts; null: none (the sandbox makes its numbers up). */
  virtualAccounts?: VirtualAccountNumbers | null;
}

/** An ISO 20022 bank over a transport: pain.001 out; pain.002, camt.054 and camt.053 in. The messages are the same whatever carries them. */
export function iso20022Bank(options: Iso20022BankOptions): Iso20022Bank {
  return {
    kind: 'iso20022',
    mode: options.mode,
    serves: options.serves,
    collectionAccount: options.collectionAccount,
    virtualAccounts: options.virtualAccounts ?? null,
    transport: options.transport,
    readStatusReport,
    readMessage,
    creditTransfer(payout, ids) {
      const content = creditTransferInitiation({
        messageId: compact(ids.orderId),
        createdAt: ids.createdAt,
        debtor: debtorParty(options.debtorAccount(payout.currency, payout.rails)),
        creditor: creditorParty(payout),
        currency: payout.currency,
        rails: payout.rails,
        amount: payout.amount,
        endToEndId: ids.endToEndId ?? compact(payout.transferId),
        uetr: ids.uetr,
      });
      return { name: `pain.001-${ids.orderId}.xml`, content };
    },
  };
}

/**
 * Any file a bank leaves for Ramp, read by the message its root names and validated against that message's schema
 * first: a file that is none of them, not well-formed or not valid is refused whole (BankFileRefused).
 */
export function readMessage(xml: string): BankMessage {
  const { document, message } = parseValidOf(xml, ['pain.002.001.10', CAMT054, CAMT053] as const);
  try {
    if (message === CAMT054) return { kind: 'notification', notification: readNotification(document) };
    if (message === CAMT053) return { kind: 'statement', statement: readStatement(document) };
    return { kind: 'status_report', report: statusReportOf(document) };
  } finally {
    document.dispose();
  }
}

/** A UUID without its dashes: 32 characters, within every ISO 20022 identifier's 35. */
export const compact = (uuid: string) => uuid.replaceAll('-', '');

function debtorParty(account: CollectionAccount): AccountParty {
  return {
    name: account.beneficiaryName,
    iban: account.iban?.ibanNumber ?? null,
    accountNumber: account.us?.accountNumber ?? null,
    bic: account.iban?.bic ?? null,
    routingNumber: account.us?.routingNumber ?? null,
  };
}

/** A SWIFT payout account holds an IBAN where the country has them, an account number elsewhere. */
function creditorParty(payout: FiatPayout): AccountParty {
  const iban = payout.accountType === 'iban' || (payout.accountType === 'swift' && isValidIban(payout.accountNumber));
  return {
    name: payout.holderName,
    iban: iban ? payout.accountNumber.replaceAll(' ', '').toUpperCase() : null,
    accountNumber: iban ? null : payout.accountNumber,
    bic: payout.bic,
    routingNumber: payout.routingNumber,
  };
}
