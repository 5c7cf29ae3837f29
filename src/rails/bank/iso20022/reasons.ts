/**
 * The ISO 20022 external status reason codes a bank most often gives for a rejected or returned credit transfer, in
 * the words Ramp reports them with. A code not listed is reported as the bank sent it, with the bank's own words.
 */
const WORDS: Record<string, string> = {
  AC01: 'incorrect account number',
  AC03: 'invalid creditor account number',
  AC04: 'closed account number',
  AC06: 'blocked account',
  AC13: 'invalid debtor account type',
  AG01: 'transaction forbidden on this account',
  AG02: 'invalid bank operation code',
  AM02: 'amount above the allowed maximum',
  AM04: 'insufficient funds',
  AM05: 'duplicate payment',
  AM09: 'wrong amount',
  BE01: 'creditor name does not match the account',
  BE04: 'missing creditor address',
  CURR: 'incorrect currency',
  CUST: 'cancelled at the customer’s request',
  DUPL: 'duplicate payment',
  FF01: 'invalid file format',
  MD07: 'beneficiary deceased',
  MS02: 'refused by the beneficiary',
  MS03: 'reason not specified by the bank',
  NARR: 'see the bank’s narrative',
  RC01: 'incorrect bank identifier (BIC)',
  RR01: 'missing debtor account or identification',
  RR02: 'missing debtor name or address',
  RR03: 'missing creditor name or address',
  RR04: 'regulatory reason',
};

/** The words for an ISO reason code: Ramp's, else the bank's own additional information, else the code alone. */
export function reasonWords(code: string, bankWords: string | null): string {
  return WORDS[code] ?? bankWords ?? 'no reason given';
}
