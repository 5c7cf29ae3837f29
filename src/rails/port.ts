import type { Environment } from '../domain/environment.js';
import type { FiatCurrency, Network, PaymentRails, Token } from '../domain/money.js';

/**
 * The rails port: what a use case may ask of the outside money world. Use cases never import a
 * chain or bank library; adapters (rails/evm, rails/simulated, rails/bank) do, and the registry
 * (rails/registry.ts) hands each (environment, network) its adapter. Modelled on Medusa's payment
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

/** A network whose chain leg is real. */
export interface LiveChain {
  readonly mode: 'live';
  readonly environment: Environment;
  readonly network: Network;
  /** `<environment>:<network>`: the key of this chain's watcher cursor and payout sender. */
  readonly key: string;
  readonly chainId: number;
  /** The RPC address shown to partners (the sandbox's own chain; never a production provider's secret URL). */
  readonly publicRpcUrl: string | null;
  readonly requiredConfirmations: number;
  readonly tokens: readonly TokenContract[];
  /** The deposit address at `index` of the configured extended public key (BIP-32, non-hardened). */
  depositAddress(index: number): string;

  head(): Promise<BlockRef>;
  block(number: bigint): Promise<BlockRef | null>;
  /**
   * Every `Transfer` log of the configured token contracts in [from, to] paying one of `recipients`: the
   * node filters by the indexed `to`, so the answer holds Ramp's deposits only, never a token's whole traffic.
   * The caller bounds both the range and the recipients per call (providers cap a call's results).
   */
  tokenTransfers(fromBlock: bigint, toBlock: bigint, recipients: readonly string[]): Promise<TokenTransfer[]>;
  lookUpTransaction(hash: string): Promise<TransactionLookup>;

  /** The treasury that pays on-ramps on this network. */
  readonly treasury: string;
  tokenBalance(token: Token, address: string): Promise<bigint>;
  /** The next nonce the chain expects from `address`, counting mined transactions only. */
  minedNonce(address: string): Promise<number>;
  fees(): Promise<Fees>;
  /** Signs `amount` of `token` to `to` from the treasury, with `nonce` and `fees`: no network call, so it may run in the transaction that stores it. */
  signPayout(payout: { token: Token; to: string; amount: bigint; nonce: number; fees: Fees }): Promise<SignedPayout>;
  /** Sends a signed transaction; one the node already knows is not an error. */
  broadcast(raw: string): Promise<void>;
  receipt(hash: string): Promise<Receipt>;

  /**
   * Whether Ramp holds a signer for the deposit addresses (the sandbox's, or EVM_<NETWORK>_SWEEP_KEY_FILE): only then
   * are deposits swept to the treasury; otherwise they stay where they were paid, for the operator's custody to move.
   */
  readonly sweeps: boolean;
  /** Wei at `address`. */
  nativeBalance(address: string): Promise<bigint>;
  /** What sweeping one deposit address may spend on gas at `fees`: a padded token transfer's gas. */
  sweepGasCost(fees: Fees): bigint;
  /** Signs `amount` wei from the treasury to `to`, so a deposit address can pay its sweep's gas. */
  signGasTopUp(topUp: { to: string; amount: bigint; nonce: number; fees: Fees }): Promise<SignedPayout>;
  /** Signs `amount` of `token` from the deposit address at `index` to the treasury (`sweeps` must be true). */
  signSweep(sweep: { index: number; token: Token; amount: bigint; nonce: number; fees: Fees }): Promise<SignedPayout>;
}

/** A network whose chain leg Ramp makes up (solana and tron, and every network of a sandbox run without a chain). */
export interface SimulatedChain {
  readonly mode: 'simulated';
  readonly environment: Environment;
  readonly network: Network;
}

export type ChainRails = LiveChain | SimulatedChain;

/**
 * Where an on-ramp customer sends fiat (spec §2.4 `quote.deposit_bank_account`): Ramp's collection
 * account (a business), or for a virtual-account deposit the customer's own virtual account.
 */
export interface DepositBankAccount {
  bank_name: string;
  bank_address: string;
  account_beneficiary_type: 'individual' | 'business';
  account_beneficiary_name: string;
  account_type: 'iban' | 'us' | 'swift';
  iban?: { bic: string; iban_number: string };
  us?: { account_number: string; routing_number: string };
  /** Only virtual accounts that receive USD over SWIFT: a US bank's BIC, account and routing number. */
  swift?: { bic: string; account_number: string; routing_number: string };
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

/**
 * The fiat leg. Today the sandbox bank alone (rails/bank/sandbox-bank.ts); a bank adapter speaking
 * ISO 20022 comes next, behind these members.
 */
export interface BankRails {
  readonly mode: RailsMode;
  /** Ramp's collection account for a currency over its rails, where on-ramp customers pay in. */
  collectionAccount(currency: FiatCurrency, rails: PaymentRails): DepositBankAccount;
  /** Sends an off-ramp's fiat to the customer's account. */
  payOut(payout: FiatPayout): Promise<void>;
}
