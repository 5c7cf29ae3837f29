import { readFileSync } from 'node:fs';
import type { BankDebtorConfig, Config, ProductionBankConfig, ProductionChainConfig, VirtualAccountRange } from '../config.js';
import { composeIBAN } from 'ibantools';
import type { Environment } from '../domain/environment.js';
import { EVM_NETWORKS, type FiatCurrency, type Network, type PaymentRails } from '../domain/money.js';
import type { NetworkTokens } from '../domain/network-tokens.js';
import type { Logger } from '../platform/observability/logging.js';
import { Refusal } from '../refusal.js';
import { iso20022Bank } from './bank/iso20022/bank.js';
import { folderTransport } from './bank/iso20022/folder.js';
import { type BankSimulator, bankSimulator } from './bank/iso20022/simulator.js';
import { sandboxBank, sandboxCollectionAccount, sandboxServes } from './bank/sandbox-bank.js';
import { evmChain } from './evm/chain.js';
import { accountXpub, depositSignerFrom, isExtendedPublicKey, signerFromMnemonic, signerFromPrivateKey } from './evm/hd.js';
import { type LocalNode, startLocalNode } from './evm/local-node.js';
import { chainIdAt, holdsContract, tokenDecimals } from './evm/probe.js';
import type { RpcEndpoint } from './evm/rpc.js';
import { SANDBOX_ACCOUNTS, SANDBOX_CHAIN_ID, SANDBOX_MNEMONIC, type SandboxChainSetup, setUpSandboxChain } from './evm/sandbox-chain.js';
import { guardedBank, guardedChain, guardedTools } from './guard.js';
import { sandboxTools } from './evm/sandbox-tools.js';
import type { BankRails, ChainRails, CollectionAccount, LiveChain, SandboxChainTools, TokenContract, VirtualAccountNumbers } from './port.js';

export type { SandboxChainTools };

/** Every leg Ramp can move money on, per environment: the use cases' one way out (rails/port.ts). */
export interface Rails {
  /** A network's chain leg in an environment, or null when it is not connected there (`rails_not_connected`). */
  chain(environment: Environment, network: Network): ChainRails | null;
  /** The chains an adapter really talks to: one watcher and one payout sender run per chain. */
  liveChains(): readonly LiveChain[];
  /** The fiat leg of an environment, or null when no bank is connected there. */
  bank(environment: Environment): BankRails | null;
  /** The sandbox's bank on the other side of BANK_ISO20022_DIR (SANDBOX_BANK=iso20022, BANK_SIMULATOR=on), or null. */
  sandboxBankSimulator: BankSimulator | null;
  /** The sandbox's local chain, when Ramp runs one (SANDBOX_CHAIN=local). */
  sandboxChain: SandboxChainTools | null;
  /** The stablecoins offered on each network, in every environment (NETWORK_TOKENS): other pairs are never quoted. */
  networkTokens: NetworkTokens;
  close(): Promise<void>;
}

/**
 * The sandbox's fiat leg: the in-process bank by default, which settles a payout at once, so a partner's first hour
 * needs no folder and no one playing the bank; the ISO 20022 adapter over BANK_ISO20022_DIR with SANDBOX_BANK=iso20022.
 */
function openSandboxBank(config: Config): BankRails {
  if (config.SANDBOX_BANK !== 'iso20022') return guardedBank(sandboxBank);
  const configured = config.bankDebtor && accountOf(config.bankDebtor, '', '');
  return guardedBank(
    iso20022Bank({
      mode: 'simulated',
      transport: folderTransport(config.BANK_ISO20022_DIR!),
      serves: sandboxServes,
      collectionAccount: sandboxCollectionAccount,
      debtorAccount: (currency, rails) => configured ?? sandboxCollectionAccount(currency, rails),
    }),
  );
}

/** Ramp's account at its bank as a collection account: its IBAN with its BIC, or its US account and routing number. */
function accountOf(account: BankDebtorConfig, bankName: string, bankAddress: string): CollectionAccount {
  return {
    bankName,
    bankAddress,
    beneficiaryName: account.name,
    accountType: account.iban ? 'iban' : 'us',
    ...(account.iban && { iban: account.iban }),
    ...(account.us && { us: account.us }),
  };
}

/**
 * Which fiat a production bank account moves: an IBAN account euros over SEPA and SWIFT, a US account dollars over
 * ACH and Fedwire. Anything else (dirhams, dollars over SWIFT) needs an account of its own there, so it stays unconnected.
 */
export const PRODUCTION_RAILS = {
  iban: { eur: ['sepa', 'swift'] },
  us: { usd: ['ach', 'wire'] },
} as const satisfies Record<'iban' | 'us', Partial<Record<FiatCurrency, readonly PaymentRails[]>>>;

/**
 * Production's fiat leg: the ISO 20022 bank at BANK_ISO20022_DIR, through Ramp's own account there (BANK_DEBTOR_*), which
 * both pays payouts and collects on-ramps. Live: its files reach a real bank.
 */
function openProductionBank(bank: ProductionBankConfig): BankRails {
  const served = (currency: FiatCurrency, rails: PaymentRails, kind: 'iban' | 'us') =>
    bank.account[kind] !== null && ((PRODUCTION_RAILS[kind] as Partial<Record<FiatCurrency, readonly PaymentRails[]>>)[currency]?.includes(rails) ?? false);
  const accountFor = (currency: FiatCurrency, rails: PaymentRails): CollectionAccount => {
    const kind = served(currency, rails, 'iban') ? 'iban' : served(currency, rails, 'us') ? 'us' : null;
    if (!kind) throw new Error(`production's bank account does not move ${currency} over ${rails}`);
    const { name } = bank.account;
    return accountOf({ name, iban: kind === 'iban' ? bank.account.iban : null, us: kind === 'us' ? bank.account.us : null }, bank.bankName, bank.bankAddress);
  };
  return guardedBank(
    iso20022Bank({
      mode: 'live',
      transport: folderTransport(bank.dir),
      serves: (currency, rails) => served(currency, rails, 'iban') || served(currency, rails, 'us'),
      collectionAccount: accountFor,
      debtorAccount: accountFor,
      virtualAccounts: bank.virtualAccounts && virtualAccountNumbers(bank.virtualAccounts, accountFor),
    }),
  );
}

/**
 * Virtual accounts at Ramp's bank, from the range it reserved (BANK_VIRTUAL_ACCOUNTS), as banks issue virtual IBANs and
 * sub-accounts under a master account: a EUR account's IBAN is Ramp's own with the range's number as the last digits of
 * its account number (its bank code kept, its check digits computed again), a USD account's number is the range's at
 * Ramp's routing number. Money paid to one lands in Ramp's account, and the bank's camt.054 names the number it was
 * paid to (CdtrAcct), which finds the virtual account.
 */
function virtualAccountNumbers(
  range: VirtualAccountRange,
  accountFor: (currency: FiatCurrency, rails: PaymentRails) => CollectionAccount,
): VirtualAccountNumbers {
  return {
    size: Number(range.last - range.first + 1n),
    account(currency, rails, nth) {
      const number = String(range.first + BigInt(nth)).padStart(range.digits, '0');
      const master = accountFor(currency, rails);
      if (master.iban) {
        const bban = master.iban.ibanNumber.slice(4);
        const iban = composeIBAN({ countryCode: master.iban.ibanNumber.slice(0, 2), bban: bban.slice(0, bban.length - range.digits) + number });
        return iban ? { ...master, iban: { ...master.iban, ibanNumber: iban } } : null;
      }
      return master.us ? { ...master, us: { ...master.us, accountNumber: number } } : null;
    },
  };
}

/** Opens every configured leg: the sandbox's chain (started or joined), production's networks (each checked). */
export async function openRails(config: Config, logger: Logger): Promise<Rails> {
  const live = new Map<string, LiveChain>();
  const sandboxBankRails = openSandboxBank(config);
  const productionBankRails = config.productionBank && openProductionBank(config.productionBank);
  let node: LocalNode | null = null;
  let sandboxChain: SandboxChainTools | null = null;
  try {
    if (config.sandboxChain === 'local') {
      const opened = await openSandboxChain(config, logger);
      node = opened.node;
      sandboxChain = guardedTools('sandbox chain', opened.tools, ['readMinter', 'sendMint', 'receipt', 'head', 'faucet', 'sendFromCustomer']);
      for (const chain of opened.chains) live.set(chain.key, chain);
    }
    for (const network of config.productionChains) {
      const chain = await openProductionChain(network, config.CHAIN_RPC_TIMEOUT_MS);
      live.set(chain.key, chain);
      logger.info(`production ${network.network}: live on chain ${network.chainId}, ${network.confirmations} confirmations`);
    }
  } catch (error) {
    await node?.stop();
    throw error;
  }
  return {
    chain(environment, network) {
      const chain = live.get(`${environment}:${network}`);
      if (chain) return chain;
      // Production never makes a chain's part up: a network not configured there is not connected.
      return environment === 'sandbox' ? { mode: 'simulated', environment, network } : null;
    },
    liveChains: () => [...live.values()],
    sandboxBankSimulator:
      config.SANDBOX_BANK === 'iso20022' && config.BANK_SIMULATOR === 'on'
        ? guardedTools('bank simulator', bankSimulator(config.BANK_ISO20022_DIR!), ['answer', 'bookCredit'])
        : null,
    bank: (environment) => (environment === 'sandbox' ? sandboxBankRails : productionBankRails),
    sandboxChain,
    networkTokens: config.networkTokens,
    close: async () => node?.stop(),
  };
}

async function openSandboxChain(config: Config, logger: Logger) {
  const node = config.SANDBOX_CHAIN_RPC_URL
    ? null
    : await startLocalNode({
        chainId: SANDBOX_CHAIN_ID,
        mnemonic: SANDBOX_MNEMONIC,
        blockTimeSeconds: config.sandboxBlockTimeSeconds,
        stateDir: config.DATA_DIR === 'memory://' || config.DATABASE_URL ? null : `${config.DATA_DIR}-chain`,
        log: (message) => logger.warn(message),
      });
  try {
    const rpcUrl = config.SANDBOX_CHAIN_RPC_URL ?? node!.rpcUrl;
    const rpc: RpcEndpoint = { url: rpcUrl, timeoutMs: config.CHAIN_RPC_TIMEOUT_MS };
    const minter = signerFromMnemonic(SANDBOX_MNEMONIC, SANDBOX_ACCOUNTS.minter, 0);
    // Each network pays from a treasury of its own: one sender, one nonce sequence per network, though they share a chain.
    const treasuries = EVM_NETWORKS.map((_, i) => signerFromMnemonic(SANDBOX_MNEMONIC, SANDBOX_ACCOUNTS.minter, 1 + i));
    const setup: SandboxChainSetup = await setUpSandboxChain(
      rpc,
      minter.address,
      treasuries.map((t) => t.address),
    );
    const chainId = await chainIdAt(rpc);
    logger.info(
      setup.deployed
        ? `sandbox chain at ${rpcUrl}: a new chain; deployed USDC and USDT for ${EVM_NETWORKS.join(', ')} and funded the treasuries`
        : `sandbox chain at ${rpcUrl}: found its USDC and USDT contracts`,
    );
    const depositXpub = accountXpub(SANDBOX_MNEMONIC, SANDBOX_ACCOUNTS.deposits);
    const tokens = await Promise.all(EVM_NETWORKS.map((network) => withDecimals(rpc, setup.tokens[network]!)));
    const chains = EVM_NETWORKS.map((network, i) =>
      guardedChain(
        evmChain({
          environment: 'sandbox',
          network,
          chainId,
          rpcUrls: [rpcUrl],
          rpcTimeoutMs: rpc.timeoutMs,
          publicRpcUrl: rpcUrl,
          requiredConfirmations: config.SANDBOX_CONFIRMATIONS,
          tokens: tokens[i]!,
          depositXpub,
          treasury: treasuries[i]!,
          // The sandbox's mnemonic is public: it signs for its deposit addresses, so deposits are swept as in production.
          depositSigner: config.sandboxChainSweeps ? (index) => signerFromMnemonic(SANDBOX_MNEMONIC, SANDBOX_ACCOUNTS.deposits, index) : null,
        }),
      ),
    );
    const tools = sandboxTools({ rpc, ownNode: node !== null, chainId, node: chains[0]!, minter });
    return { node, chains, tools };
  } catch (error) {
    await node?.stop();
    throw error;
  }
}

/** One production network, checked against its chain now rather than at the first deposit, each request bounded by `rpcTimeoutMs`. */
async function openProductionChain(network: ProductionChainConfig, rpcTimeoutMs: number): Promise<LiveChain> {
  const name = `EVM_${network.network.toUpperCase()}`;
  const readKey = (variable: string, file: string) => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      throw new Refusal(`Invalid configuration: ${name}_${variable} (${file}) cannot be read`);
    }
  };
  const key = readKey('TREASURY_KEY_FILE', network.treasuryKeyFile);
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) throw new Refusal(`Invalid configuration: ${name}_TREASURY_KEY_FILE must hold one hex private key`);
  // The configuration checked how the key is written; its point must also lie on the curve.
  if (!isExtendedPublicKey(network.xpub))
    throw new Refusal(`Invalid configuration: ${name}_XPUB must be a BIP-32 extended public key (xpub…), never a private one`);
  let depositSigner: ReturnType<typeof depositSignerFrom> = null;
  if (network.sweepKeyFile) {
    const xprv = readKey('SWEEP_KEY_FILE', network.sweepKeyFile);
    try {
      depositSigner = depositSignerFrom(xprv, network.xpub);
    } catch {
      depositSigner = null;
    }
    if (!depositSigner) throw new Refusal(`Invalid configuration: ${name}_SWEEP_KEY_FILE must hold the extended private key of ${name}_XPUB`);
  }
  const rpc: RpcEndpoint = { url: network.rpcUrls[0]!, timeoutMs: rpcTimeoutMs };
  let chainId: number;
  try {
    chainId = await chainIdAt(rpc);
  } catch {
    throw new Refusal(`Invalid configuration: ${name}_RPC_URLS: ${network.rpcUrls[0]} does not answer eth_chainId`);
  }
  if (chainId !== network.chainId) throw new Refusal(`Invalid configuration: ${name}_CHAIN_ID is ${network.chainId} but the RPC serves chain ${chainId}`);
  for (const token of network.tokens) {
    if (!(await holdsContract(rpc, token.contractAddress)))
      throw new Refusal(`Invalid configuration: ${name}_${token.token.toUpperCase()}_ADDRESS holds no contract on chain ${chainId}`);
  }
  let tokens: TokenContract[];
  try {
    tokens = await withDecimals(rpc, network.tokens);
  } catch {
    throw new Refusal(`Invalid configuration: a token contract of ${name} does not answer decimals() on chain ${chainId}`);
  }
  return guardedChain(
    evmChain({
      environment: 'production',
      network: network.network,
      chainId,
      rpcUrls: network.rpcUrls,
      rpcTimeoutMs,
      publicRpcUrl: null,
      requiredConfirmations: network.confirmations,
      tokens,
      depositXpub: network.xpub,
      treasury: signerFromPrivateKey(key.startsWith('0x') ? key : `0x${key}`),
      depositSigner,
    }),
  );
}

/** Each contract with the decimals it declares, read from the chain once, here, and nowhere else. */
async function withDecimals(rpc: RpcEndpoint, tokens: readonly Omit<TokenContract, 'decimals'>[]): Promise<TokenContract[]> {
  return Promise.all(tokens.map(async (t) => ({ ...t, decimals: await tokenDecimals(rpc, t.contractAddress) })));
}
