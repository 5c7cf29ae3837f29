import { create } from 'xmlbuilder2';
import { Decimal, type FiatCurrency, type PaymentRails, SCALE, toFixedPlaces } from '../../../domain/money.js';
import { assertValid, namespaceOf } from './schemas.js';

const MESSAGE = 'pain.001.001.09';

/** A bank account as a party of a credit transfer: an IBAN or an account number, and its bank's BIC or routing number. */
export interface AccountParty {
  name: string;
  iban: string | null;
  accountNumber: string | null;
  bic: string | null;
  /** A US ABA routing number. */
  routingNumber: string | null;
}

/** One credit transfer, as Ramp asks its bank to make it: one pain.001 file each, so one file is one payment. */
export interface CreditTransferOrder {
  /** The file's MsgId (and its payment information's PmtInfId): the stored order's id without dashes. */
  messageId: string;
  createdAt: Date;
  /** Ramp's own account at the bank, that pays. */
  debtor: AccountParty;
  /** The customer's account, that is paid. */
  creditor: AccountParty;
  currency: FiatCurrency;
  rails: PaymentRails;
  /** In the currency's unit, a decimal string with no more decimals than the currency has. */
  amount: string;
  /** The transfer's id without dashes: what the bank's reports and the customer's statement carry back. */
  endToEndId: string;
  /** The payment's UUID v4 tracking id, carried end to end by SWIFT gpi, Fedwire and SEPA alike. */
  uetr: string;
}

/** SEPA transfers say so; wires and SWIFT ask for same-day; ACH and UAEFTS are normal priority. */
const SERVICE_LEVEL: Record<PaymentRails, string> = { sepa: 'SEPA', wire: 'URGP', swift: 'URGP', ach: 'NURG', uaefts: 'NURG' };

/**
 * The pain.001.001.09 document of `order`, validated against its schema before it is returned: a file Ramp writes
 * is never one its bank would refuse for its form.
 */
export function creditTransferInitiation(order: CreditTransferOrder): string {
  const amount = minorUnits(order.amount, order.currency);
  const xml = create(
    { version: '1.0', encoding: 'UTF-8' },
    {
      Document: {
        '@xmlns': namespaceOf(MESSAGE),
        CstmrCdtTrfInitn: {
          GrpHdr: {
            MsgId: order.messageId,
            CreDtTm: isoDateTime(order.createdAt),
            NbOfTxs: '1',
            CtrlSum: amount,
            InitgPty: { Nm: order.debtor.name },
          },
          PmtInf: {
            PmtInfId: order.messageId,
            PmtMtd: 'TRF',
            BtchBookg: 'false',
            NbOfTxs: '1',
            CtrlSum: amount,
            PmtTpInf: { SvcLvl: { Cd: SERVICE_LEVEL[order.rails] } },
            ReqdExctnDt: { Dt: order.createdAt.toISOString().slice(0, 10) },
            Dbtr: { Nm: order.debtor.name },
            DbtrAcct: account(order.debtor),
            DbtrAgt: agent(order.debtor),
            // SEPA's charges follow the scheme's rules (SLEV); elsewhere each side pays its own bank (SHAR).
            ChrgBr: order.rails === 'sepa' ? 'SLEV' : 'SHAR',
            CdtTrfTxInf: {
              PmtId: { InstrId: order.messageId, EndToEndId: order.endToEndId, UETR: order.uetr },
              Amt: { InstdAmt: { '@Ccy': order.currency.toUpperCase(), '#': amount } },
              CdtrAgt: agent(order.creditor),
              Cdtr: { Nm: order.creditor.name },
              CdtrAcct: account(order.creditor),
              RmtInf: { Ustrd: `Ramp transfer ${order.endToEndId}` },
            },
          },
        },
      },
    },
  ).end({ prettyPrint: true });
  assertValid(xml, MESSAGE);
  return xml;
}

function account(party: AccountParty) {
  if (party.iban) return { Id: { IBAN: party.iban } };
  if (!party.accountNumber) throw new Error(`the account of ${party.name} has neither an IBAN nor an account number`);
  return { Id: { Othr: { Id: party.accountNumber } } };
}

function agent(party: AccountParty) {
  if (!party.bic && !party.routingNumber) throw new Error(`the bank of ${party.name}'s account has neither a BIC nor a routing number`);
  return {
    FinInstnId: {
      ...(party.bic && { BICFI: party.bic }),
      // USABA: the clearing system id of the American Bankers Association routing numbers.
      ...(party.routingNumber && { ClrSysMmbId: { ClrSysId: { Cd: 'USABA' }, MmbId: party.routingNumber } }),
    },
  };
}

/** The amount in the currency's minor-unit precision; one finer than that is a bug, never rounded away. */
function minorUnits(amount: string, currency: FiatCurrency): string {
  const value = new Decimal(amount);
  if (value.decimalPlaces() > SCALE[currency]) throw new Error(`${amount} ${currency} is finer than the currency's minor unit`);
  return toFixedPlaces(value, SCALE[currency]);
}

/** ISO date and time in UTC, to the second (the schema's xs:dateTime, as banks expect it). */
const isoDateTime = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;
