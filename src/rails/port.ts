import type { Environment } from '../domain/environment.js';
import type { FiatCurrency, Network, PaymentRails, Token } from '../domain/money.js';

/**
 * The rails port: what a use case may ask of the outside money world. Use cases never import a
 * chain or bank library; adapters (rails/evm, rails/bank) do, and the registry (rails/registry.ts)
 * hands each (environment, network) its adapter, or a simulated chain where none is live. Modelled on Medusa's payment
 * providers: one interface, one adapter per way money really moves.
 */

/** `live`: an adapter talks to a real chain. `simulated`: Ramp makes the chain's part up (sandbox only). */
export type RailsMode = 'live' | 'simulated';

/** A token contract of one network. */
export interface TokenContract {
  token: Token;
  /** EIP-55 checksummed. */
  contractAddress: string;
  /** The contract's own `decimals()`, read once when the chain is opened: the one source of every base-unit conversion. */
  decimals: number;
}

/** A block as the watcher remembers it: enough to notice that a later block no longer builds on it. */
export interface BlockRef {
  number: bigint;
  hash: string;
  parentHash: string;
}

/** One ERC-20 `Transfer` log. Addresses and hashes in lower case. */
export interface TokenTransfer {
  /** The configured token this contract is, or null for any other contract's `Transfer`. */
  token: Token | null;
  contractAddress: string;
  from: string;
  to: string;
  /** In the token's base units (its contract's `decimals`): never a float. */
  amount: bigint;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
}

/** What the chain says of one transaction hash. */
export type TransactionLookup = { found: false } | { found: true; succeeded: boolean; blockNumber: bigint; blockHash: string; tokenTransfers: TokenTransfer[] };

/** EIP-1559 fees, in wei. */
export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** A payout signed and not yet (or maybe already) broadcast: stored before it is sent. */
export interface SignedPayout {
  raw: string;
  hash: string;
  nonce: number;
  fees: Fees;
}

/** Where a sent transaction stands. */
export type Receipt = { status: 'pending' } | { status: 'mined'; succeeded: boolean; blockNumber: bigint; blockHash: string };

/**
 * Signs for one address (a treasury, a deposit address when sweeping). The sandbox signs with a
 * local key; production plugs a KMS or HSM in behind the same two members.
 */
export interface Signer {
  readonly address: string;
  signTransaction(transaction: {
    chainId: number;
    to: string;
    data: string;
    nonce: number;
    gas: bigint;
    maxFeePerGas: bigint;
    maxPriorityFeePerGas: bigint;
    /** Wei sent along (a gas top-up); none for a token transfer. */
    value?: bigint;
  }): Promise<string>;
}

/** A live chain as every role knows it: which network, its contracts and confirmations, its deposit addresses. */
export interface ChainIdentity {
  readonly mode: 'live';
  readonly environment: Environment;
  readonly network: Network;
  /** `<environment>:<network>`: the key of this chain's watcher cursor and the treasury's nonce sequence. */
  readonly key: string;
  readonly chainId: number;
  /** The RPC address shown to partners (the sandbox's own chain; never a production provider's secret URL). */
  readonly publicRpcUrl: string | null;
  readonly requiredConfirmations: number;
  /** Each with the decimals its contract declares, read from the chain once, at start. */
  readonly tokens: readonly TokenContract[];
  /** The deposit address at `index` of the configured extended public key (BIP-32, non-hardened). */
  depositAddress(index: number): string;
}

/** The reader: what Ramp asks a chain, each call bounded in time and refused inside a database transaction. */
export interface ChainReader {
  head(): Promise<BlockRef>;
  block(number: bigint): Promise<BlockRef | null>;
  /**
   * Every `Transfer` log of the configured token contracts in [from, to] paying one of `recipients`: the
   * node filters by the indexed `to`, so the answer holds Ramp's deposits only, never a token's whole traffic.
   * The caller bounds both the range and the recipients per call (providers cap a call's results).
   */
  tokenTransfers(fromBlock: bigint, toBlock: bigint, recipients: readonly string[]): Promise<TokenTransfer[]>;
  lookUpTransaction(hash: string): Promise<TransactionLookup>;
  receipt(hash: string): Promise<Receipt>;
  tokenBalance(token: Token, address: string): Promise<bigint>;
  /** Wei at `address`. */
  nativeBalance(address: string): Promise<bigint>;
  /** The next nonce the chain expects from `address`, counting mined transactions only. */
  minedNonce(address: string): Promise<number>;
  fees(): Promise<Fees>;
}

/**
 * The treasury sender: the account that pays on-ramps and deposit addresses' gas. Signing asks the node nothing, so
 * it runs in the transaction that takes the nonce and stores the signed transaction; broadcasting comes after commit.
 */
export interface TreasurySender {
  /** The treasury that pays on-ramps on this network. */
  readonly treasury: string;
  /** Signs `amount` of `token` to `to` from the treasury, with `nonce` and `fees`. */
  signPayout(payout: { token: Token; to: string; amount: bigint; nonce: number; fees: Fees }): Promise<SignedPayout>;
  /** Signs `amount` wei from the treasury to `to`, so a deposit address can pay its sweep's gas. */
  signGasTopUp(topUp: { to: string; amount: bigint; nonce: number; fees: Fees }): Promise<SignedPayout>;
  /** Sends a signed transaction; one the node already knows is not an error. */
  broadcast(raw: string): Promise<void>;
}

/** The sweeper: moves confirmed deposits from their own addresses to the treasury, when Ramp holds their keys. */
export interface DepositSweeper {
  /**
   * Whether Ramp holds a signer for the deposit addresses (the sandbox's, or EVM_<NETWORK>_SWEEP_KEY_FILE): only then
   * are deposits swept to the treasury; otherwise they stay where they were paid, for the operator's custody to move.
   */
  readonly sweeps: boolean;
  /** What sweeping one deposit address may spend on gas at `fees`: a padded token transfer's gas. */
  sweepGasCost(fees: Fees): bigint;
  /** Signs `amount` of `token` from the deposit address at `index` to the treasury (`sweeps` must be true). */
  signSweep(sweep: { index: number; token: Token; amount: bigint; nonce: number; fees: Fees }): Promise<SignedPayout>;
}

/** A network whose chain leg is real: one adapter playing the three roles; each job takes the roles it needs. */
export interface LiveChain extends ChainIdentity, ChainReader, TreasurySender, DepositSweeper {}

/** What the deposit watcher and `complete` need: to read the chain, never to sign on it. */
export type WatchedChain = ChainIdentity & ChainReader;

/**
 * The sandbox adapter: what only the sandbox's own chain can do, mint test tokens (Ramp's minter, under the nonce
 * allocator) and act as a customer's wallet.
 */
export interface SandboxChainTools {
  rpcUrl: string;
  /** Whether Ramp started this node itself (no SANDBOX_CHAIN_RPC_URL): its chain is this Ramp's alone. */
  ownNode: boolean;
  /** The minter's nonce sequence (custody's allocator): one account mints on the one local chain, for every network. */
  mintSequence: string;
  minter: string;
  /** The minter's next mined nonce and the chain's fees: read before the transaction that signs a mint. */
  readMinter(): Promise<{ minedNonce: number; fees: Fees }>;
  /** Signs a mint with the minter's key (no call to the node): stored before it is sent. */
  signMint(mint: { contract: string; to: string; amount: bigint; nonce: number; fees: Fees }): Promise<SignedPayout>;
  /** Gives `to` gas and broadcasts a signed mint (one the node has is not an error). */
  sendMint(raw: string, to: string): Promise<void>;
  receipt(hash: string): Promise<Receipt>;
  /** The local chain's head: a mint is followed until it has `requiredConfirmations` below it. */
  head(): Promise<BlockRef>;
  /** The sandbox's confirmations (SANDBOX_CONFIRMATIONS), the same on every network of the local chain. */
  requiredConfirmations: number;
  /** Gives a wallet `amount` (base units) more of a token, and gas, by writing the chain's state: no transaction. */
  faucet(contract: TokenContract, address: string, amount: bigint): Promise<void>;
  /** A customer wallet of the sandbox (one per `walletIndex`), funded, then sending `amount` to `to`: the transfer's hash. */
  sendFromCustomer(contract: TokenContract, walletIndex: number, to: string, amount: bigint): Promise<string>;
}

/** A network whose chain leg Ramp makes up (solana and tron, and every network of a sandbox run without a chain). */
export interface SimulatedChain {
  readonly mode: 'simulated';
  readonly environment: Environment;
  readonly network: Network;
}

export type ChainRails = LiveChain | SimulatedChain;

/** A bank account Ramp collects on, where on-ramp customers pay in: Ramp's own (a business) at the bank's. */
export interface CollectionAccount {
  bankName: string;
  bankAddress: string;
  beneficiaryName: string;
  accountType: 'iban' | 'us';
  iban?: { bic: string; ibanNumber: string };
  us?: { accountNumber: string; routingNumber: string };
}

/** An off-ramp's fiat as the bank is asked to send it: the customer's account, its number in full. */
export interface FiatPayout {
  transferId: string;
  currency: FiatCurrency;
  rails: PaymentRails;
  /** In the currency's unit, a decimal string. */
  amount: string;
  accountType: 'iban' | 'us' | 'swift';
  /** The IBAN or account number in clear (opened from its sealed form for this payout only). */
  accountNumber: string;
  bic: string | null;
  routingNumber: string | null;
  holderName: string;
}

/** What a bank said of one credit transfer Ramp sent: accepted (settled), rejected with a reason, or still on its way. */
export type PaymentStatus =
  | { kind: 'accepted'; code: 'ACSC' | 'ACCC' }
  | { kind: 'rejected'; reasonCode: string; reasonWords: string }
  | { kind: 'pending'; code: string };

/** One status of a bank's status report: for one transaction (by its EndToEndId), or for a whole file (by its MsgId). */
export interface StatusOfPayment {
  /** The report's MsgId and what the status is of: applying each key once makes a file dropped twice change nothing. */
  key: string;
  originalMessageId: string;
  /** Null for a group status, which speaks for every transaction of the original file. */
  endToEndId: string | null;
  uetr: string | null;
  status: PaymentStatus;
}

/** A bank's status report on files Ramp sent (an ISO 20022 pain.002). */
export interface StatusReport {
  messageId: string;
  statuses: StatusOfPayment[];
}

/**
 * One entry the bank booked (or reports pending) on one of Ramp's accounts, as a camt.054 notification or a camt.053
 * statement carries it: the same ReportEntry in both.
 */
export interface BankEntry {
  /** The bank's own reference (AcctSvcrRef), else the entry's (NtryRef): each entry is applied once by it. */
  reference: string;
  direction: 'credit' | 'debit';
  /** In the currency's unit, a decimal string as the file wrote it. */
  amount: string;
  /** ISO 4217, as the file wrote it (upper case). */
  currency: string;
  /** BOOK (booked), PDNG (pending), INFO …: only booked entries move money. */
  status: string;
  /** The booking date (YYYY-MM-DD), when the bank gave one. */
  bookingDate: string | null;
  /** The account the report is of: its IBAN, else its other identification. */
  account: string | null;
  /** The account credited, from the entry's transaction details (a virtual account's number), when given. */
  creditorAccount: string | null;
  /** The unstructured remittance lines, joined by a space: where a payer writes the deposit reference. */
  remittance: string | null;
  endToEndId: string | null;
  uetr: string | null;
  /** The return of a payment (RtrInf): its ISO reason code and words. */
  returned: { reasonCode: string; reasonWords: string } | null;
  /** How many transactions the entry books (a batch booking has several): only one is matched automatically. */
  transactions: number;
}

/** A bank's debit and credit notification (an ISO 20022 camt.054). */
export interface BankNotification {
  messageId: string;
  entries: BankEntry[];
}

/** One account's statement of a bank's end-of-day statement file (an ISO 20022 camt.053). */
export interface AccountStatement {
  /** The statement's own id (Stmt/Id). */
  id: string;
  account: string | null;
  /** The day or days it covers, when given: FrToDt, else the entries' booking dates. */
  from: string | null;
  to: string | null;
  entries: BankEntry[];
}

export interface BankStatement {
  messageId: string;
  statements: AccountStatement[];
}

/** What a file the bank left is, read whole (or refused whole, BankFileRefused). */
export type BankMessage =
  | { kind: 'status_report'; report: StatusReport }
  | { kind: 'notification'; notification: BankNotification }
  | { kind: 'statement'; statement: BankStatement };

/**
 * A bank file refused whole: not well-formed, not valid against its message's schema, or naming a payment Ramp never
 * sent. Nothing of it is applied; `reason` is what the operator reads beside it.
 */
export class BankFileRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'BankFileRefused';
  }
}

/** A file between Ramp and its bank: its name in the transport and its content. */
export interface BankFile {
  name: string;
  content: string;
}

/**
 * How bank files travel. A folder today (rails/bank/iso20022/folder.ts, BANK_ISO20022_DIR); SFTP or a bank's HTTP API
 * can sit behind the same members. Every member talks to the outside, so each is refused inside a transaction.
 */
export interface BankTransport {
  /** Hands `file` to the bank whole or not at all; sending the same name again replaces it, never adds a second. */
  send(file: BankFile): Promise<void>;
  /** Files the bank left for Ramp and Ramp has not yet moved aside, oldest first, at most `limit`. */
  received(limit: number): Promise<BankFile[]>;
  /** A received file was read and applied (or changed nothing): moved out of the way. */
  processed(name: string): Promise<void>;
  /** A received file was refused whole: set aside, with `reason` beside it for the operator. */
  rejected(name: string, reason: string): Promise<void>;
}

/** A payment order as stored before its file is written: the ids the file and the transfer share. */
export interface PaymentOrderIds {
  /** The stored order's id: the file's name and its MsgId derive from it. */
  orderId: string;
  /** UUID v4. */
  uetr: string;
  createdAt: Date;
  /** The EndToEndId, when not the transfer id without dashes (a payout's): a refund's is its own order's. */
  endToEndId?: string;
}

/** What every fiat leg has. */
interface BankRailsBase {
  readonly mode: RailsMode;
  /** Whether this bank moves `currency` over `rails`: where it does not, that fiat is not connected (rails_not_connected). */
  serves(currency: FiatCurrency, rails: PaymentRails): boolean;
  /** Ramp's collection account for a currency over its rails it serves, where on-ramp customers pay in. */
  collectionAccount(currency: FiatCurrency, rails: PaymentRails): CollectionAccount;
  /**
   * The numbers a live bank reserved for Ramp's virtual accounts, or null: the sandbox makes its own up, and a bank
   * without a range issues none (its virtual accounts wait, pending).
   */
  readonly virtualAccounts: VirtualAccountNumbers | null;
}

/** A bank's range of account numbers for virtual accounts (BANK_VIRTUAL_ACCOUNTS). */
export interface VirtualAccountNumbers {
  /** How many accounts the range holds, per currency. */
  readonly size: number;
  /** The `nth` (from 0) account of the range for `currency` over `rails`, at Ramp's bank: null where this bank has none. */
  account(currency: FiatCurrency, rails: PaymentRails, nth: number): CollectionAccount | null;
}

/** A bank Ramp calls and that answers at once: the sandbox's in-process bank (rails/bank/sandbox-bank.ts). */
export interface InProcessBank extends BankRailsBase {
  readonly kind: 'in_process';
  /** Sends an off-ramp's fiat to the customer's account. */
  payOut(payout: FiatPayout): Promise<void>;
}

/**
 * A bank that speaks ISO 20022 files (rails/bank/iso20022/): a payout is a pain.001 built and stored in the payout's
 * transaction, sent after it commits, and settled or rejected later by the bank's pain.002.
 */
export interface Iso20022Bank extends BankRailsBase {
  readonly kind: 'iso20022';
  /** The pain.001 of one payout, schema-valid, and its name: pure, so it is built inside the payout's transaction. */
  creditTransfer(payout: FiatPayout, ids: PaymentOrderIds): BankFile;
  /** Reads a received file as a status report, or throws BankFileRefused (rails/bank/iso20022/schemas.ts): pure. */
  readStatusReport(content: string): StatusReport;
  /** Reads any file the bank leaves (pain.002, camt.054, camt.053) by its message, or throws BankFileRefused: pure. */
  readMessage(content: string): BankMessage;
  readonly transport: BankTransport;
}

/** The fiat leg of an environment. */
export type BankRails = InProcessBank | Iso20022Bank;
