import { createHash, hkdfSync } from 'node:crypto';
import { z } from 'zod';
import { Refusal } from './refusal.js';
import { parseAddressRange } from './domain/identifiers/address-range.js';
import { isExtendedPublicKeyText } from './domain/identifiers/chain.js';
import { EVM_NETWORKS, type Network } from './domain/money.js';
import { AVAILABLE_NETWORK_TOKENS, type NetworkTokens, parseNetworkTokens } from './domain/network-tokens.js';

/** The steps of the money paths where a crash test may kill the process (TEST_CRASH_AT). */
export const CRASH_POINTS = [
  'payout-signed',
  'settle-committed',
  'top-up-signed',
  'sweep-signed',
  'mint-signed',
  'bank-order-stored',
  'bank-entry-applied',
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  /** PostgreSQL connection string; without it Ramp runs on embedded PGlite. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /**
   * PostgreSQL connection string of the role that owns the schema, used only to migrate at start; DATABASE_URL is then
   * the application's role (a member of `ramp_app`, which may not edit the audit log). Unset: DATABASE_URL migrates too.
   */
  DATABASE_OWNER_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** PostgreSQL connections one instance keeps at most. */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** How long a request waits for a PostgreSQL connection (a free one, or a new one being opened) before it answers 503. */
  DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(2000),
  /** PostgreSQL cancels a statement that runs longer than this (statement_timeout); the request answers 503. */
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Where embedded PGlite keeps its files; `memory://` keeps nothing. */
  DATA_DIR: z.string().default('./.data/pglite'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * `pretty`: one short line an event and a request (`12:00:01.234 INFO  POST /v0/customers → 201 in 12 ms  [req-id]`), for
   * people. `json`: pino's JSON lines, one object a line, for log collectors. Default pretty under NODE_ENV=development (what
   * `npm start` runs), json under production and test. Either way keys and account numbers are redacted.
   */
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  /** Address the service is reached at, used in links it hands out (kyc_flow_link, docs). */
  PUBLIC_URL: z.string().url().optional(),
  /** GraphiQL and introspection; default on outside NODE_ENV=production. */
  GRAPHQL_INTROSPECTION: flag.optional(),
  /** A trusted-documents manifest (JSON, sha256 → operation): when set only those operations run (docs/operations/production.md, "Trusted documents"). */
  GRAPHQL_TRUSTED_DOCUMENTS: z.string().min(1).optional(),
  /** Allowed CORS origins in production (comma separated). Outside production every origin is allowed. */
  CORS_ORIGINS: list.default([]),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Create the demo partner and print its sandbox key on first start. */
  BOOTSTRAP_DEMO_PARTNER: flag.default(true),
  /** Sandbox rate table: US dollars for one euro / one dirham (USD, USDC and USDT are 1). */
  SANDBOX_RATE_EUR: z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/, 'must be a decimal')
    .default('1.08'),
  SANDBOX_RATE_AED: z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/, 'must be a decimal')
    .default('0.2723'),
  /**
   * The stablecoins offered on each network, as `network:token` pairs (comma separated); a network named by no pair offers
   * none. Default: the pairs their issuers run (domain/network-tokens.ts). Quotes and virtual accounts on any other pair
   * answer 422 `token_not_offered_on_network`.
   */
  NETWORK_TOKENS: z.string().optional(),
  /** How long a quote can be turned into a transfer. */
  QUOTE_TTL_SECONDS: z.coerce.number().int().min(1).default(900),
  /** How long a pending transfer waits for its deposit before it expires. */
  DEPOSIT_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(3 * 24 * 3600),
  /** Smallest and largest transfer, valued in US dollars at the quote's rate. */
  TRANSFER_MIN_USD: z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/, 'must be a decimal')
    .default('1'),
  TRANSFER_MAX_USD: z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/, 'must be a decimal')
    .default('1000000'),
  /** Background jobs (deposit-window expiry, sandbox auto-settlement) poll this often; 0 turns them off. Default 5000, 0 under NODE_ENV=test. */
  JOBS_INTERVAL_MS: z.coerce.number().int().min(0).optional(),
  /**
   * The audit log keeps rows this many days; a background job deletes older ones through the database's `audit_trim`,
   * which never deletes a row younger than 30 days, the floor fixed by the migration (decision 026).
   */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(30).max(36_500).default(400),
  /** The sealing job links audit rows into the hash chain once they are this old, so transactions still open can commit first. */
  AUDIT_SEAL_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Sandbox only: move transfers along by themselves after this delay (deposit arrives, then settles). Off when unset. */
  AUTO_SETTLE_DELAY_MS: z.coerce.number().int().min(0).optional(),
  /** 32 random bytes, base64: encrypts webhook signing secrets at rest (AES-256-GCM). Required in production. */
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64 encoded (openssl rand -base64 32)')
    .optional(),
  /** 32 random bytes, base64: seals event cursors to their partner and environment. Derived from WEBHOOK_SECRET_KEY when unset. */
  EVENT_CURSOR_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64 encoded (openssl rand -base64 32)')
    .optional(),
  /**
   * 32 random bytes, base64: wraps each customer's data key, which seals its document and tax numbers and its directors'
   * birth dates and document numbers at rest (AES-256-GCM).
   * Required in production; elsewhere a fixed, public development key is used.
   */
  ENCRYPTION_MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64 encoded (openssl rand -base64 32)')
    .optional(),
  /** During a master key rotation: the key being replaced, so data keys it wrapped still open until they are re-wrapped. */
  ENCRYPTION_PREVIOUS_MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64 encoded (openssl rand -base64 32)')
    .optional(),
  /** How long one webhook attempt may take (connect, send, answer) before it counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Multiplies the retry schedule (0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); 0.001 in tests. */
  WEBHOOK_RETRY_TIME_SCALE: z.coerce.number().positive().max(100).default(1),
  /** Webhook attempts one instance runs at the same time. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(128),
  /** How often the webhook dispatcher looks for work when no notification woke it (due retries, expired leases). */
  WEBHOOK_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** How often an instance checks the outbox for events whose NOTIFY it missed. */
  EVENTS_CATCHUP_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Live events a subscription may fall behind by before its connection is closed (4008, slow consumer). */
  SUBSCRIPTION_BUFFER_EVENTS: z.coerce.number().int().min(1).max(100_000).default(1000),
  /** Subscriptions one API key may hold at once on one instance, over all its connections (TOO_MANY_SUBSCRIPTIONS beyond). */
  SUBSCRIPTIONS_PER_KEY: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  /** Requests one API key (or, without a valid key, one address) may make per minute; 0 turns limiting off. Default 600, 0 under NODE_ENV=test. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).optional(),
  /** redis://…: when set, every instance counts against one shared budget in Redis; without it each instance counts alone. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Prefix of the rate-limit counters in Redis (lets several deployments share one Redis). */
  RATE_LIMIT_REDIS_PREFIX: z.string().min(1).default('ramp:rate-limit:'),
  /**
   * The proxies (addresses, CIDR ranges, or proxy-addr's `loopback`, `linklocal`, `uniquelocal`; comma separated) whose
   * `X-Forwarded-For` names the client: its address is what keys' IP allowlists, rate limits and logs see. Unset: none, so
   * the client is the socket's peer and the header is ignored.
   */
  TRUST_PROXY: list
    .pipe(
      z.array(
        z.string().refine((v) => ['loopback', 'linklocal', 'uniquelocal'].includes(v) || parseAddressRange(v) !== null, 'must be addresses or CIDR ranges'),
      ),
    )
    .default([]),
  /**
   * Points one API key's GraphQL cost bucket holds (its burst): an operation costing more than what is left is refused with
   * THROTTLED (429). 0 turns the budget off. Default 5000 (the largest cost one operation may have), 0 under NODE_ENV=test.
   */
  GRAPHQL_COST_BUCKET_SIZE: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** Points per second a key's GraphQL cost bucket refills by. */
  GRAPHQL_COST_RESTORE_RATE: z.coerce.number().int().min(1).max(1_000_000).default(250),
  /** Requests one instance works on at once (/v0, /v1, /auth, /graphql); more wait in a bounded queue. */
  ADMISSION_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(64),
  /** Requests that may wait for a place among those in flight; beyond, a request is answered 503 `overloaded` at once. */
  ADMISSION_MAX_QUEUED: z.coerce.number().int().min(0).max(1_000_000).default(256),
  /** How long a request waits in that queue before it is answered 503 `overloaded`, if the instance is saturated then (else it is admitted). */
  ADMISSION_QUEUE_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(1000),
  /** Event-loop delay (p99 over half a second) past which the instance counts as saturated and sheds queued requests. */
  ADMISSION_LOOP_DELAY_LIMIT_MS: z.coerce.number().int().min(1).max(60_000).default(200),
  /** Recent average wait for a database connection past which the instance counts as saturated. */
  ADMISSION_POOL_WAIT_LIMIT_MS: z.coerce.number().int().min(1).max(60_000).default(250),
  /** When set, GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** OpenTelemetry's own switch: `true` makes no spans and exports nothing, whatever the endpoints say. */
  OTEL_SDK_DISABLED: flag.default(false),
  /** An OTLP/HTTP collector's base address: traces go to `<it>/v1/traces`. Unset (and no traces endpoint): no spans are made. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /** The OTLP/HTTP traces address itself (used as given); wins over OTEL_EXPORTER_OTLP_ENDPOINT. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
  /** `otlp` (the default when an endpoint is set) or `none`, which turns export off as OTEL_SDK_DISABLED does. */
  OTEL_TRACES_EXPORTER: z.enum(['otlp', 'none']).optional(),
  /** The `service.name` of every span. */
  OTEL_SERVICE_NAME: z.string().min(1).default('ramp'),
  /** Which traces are kept: OpenTelemetry's sampler names; the default follows the caller's sampled flag and keeps new traces. */
  OTEL_TRACES_SAMPLER: z
    .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
    .default('parentbased_always_on'),
  /** The ratio of the `traceidratio` samplers, 0 to 1 (default 1). */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  /**
   * The sandbox's EVM networks: `local` starts a local chain (anvil) on loopback and runs them on it; `simulated` makes their
   * chain leg up, as solana and tron's. Default local, simulated under NODE_ENV=test.
   */
  SANDBOX_CHAIN: z.enum(['local', 'simulated']).optional(),
  /**
   * The sandbox's fiat leg: `in_process` (default) settles an off-ramp's payout at once; `iso20022` runs it through the
   * ISO 20022 bank adapter over BANK_ISO20022_DIR (a pain.001 written, settled by the bank's pain.002).
   */
  SANDBOX_BANK: z.enum(['in_process', 'iso20022']).default('in_process'),
  /**
   * The ISO 20022 bank's folder: Ramp writes outbox/, reads inbox/ and moves what it read to processed/ or rejected/. With
   * BANK_DEBTOR_* and without SANDBOX_BANK=iso20022 it connects production's fiat leg to that bank.
   */
  BANK_ISO20022_DIR: z.string().min(1).optional(),
  /** Ramp's bank as production's deposit instructions show it: its name and its address. */
  BANK_NAME: z.string().min(1).max(140).optional(),
  BANK_ADDRESS: z.string().min(1).max(280).optional(),
  /** `off` leaves the folders to whoever plays the bank (a test, a partner's QA); `on` (default) answers each pain.001 itself. */
  BANK_SIMULATOR: z.enum(['on', 'off']).default('on'),
  /** Ramp's paying account at its bank (the pain.001's debtor). Unset in the sandbox: its collection account of each currency. */
  BANK_DEBTOR_NAME: z.string().min(1).max(140).optional(),
  BANK_DEBTOR_IBAN: z.string().min(15).max(34).optional(),
  BANK_DEBTOR_BIC: z
    .string()
    .regex(/^[A-Z0-9]{8}([A-Z0-9]{3})?$/, 'must be a BIC (8 or 11 letters and digits)')
    .optional(),
  BANK_DEBTOR_ACCOUNT_NUMBER: z.string().min(1).max(34).optional(),
  BANK_DEBTOR_ROUTING_NUMBER: z
    .string()
    .regex(/^[0-9]{9}$/, 'must be a 9-digit ABA routing number')
    .optional(),
  /**
   * The account numbers production's bank reserved for Ramp's virtual accounts, `first-last` (digits, as long as each
   * other): a EUR account's virtual IBAN is Ramp's IBAN with these as the last digits of its account number, a USD
   * account's number is one of them at Ramp's routing number. Unset: a production virtual account waits, pending.
   */
  BANK_VIRTUAL_ACCOUNTS: z
    .string()
    .regex(/^([0-9]{4,17})-([0-9]{4,17})$/, 'must be a range of account numbers, first-last')
    .optional(),
  /** Use this already running local chain (anvil, hardhat) instead of starting one: instances of one sandbox share it. */
  SANDBOX_CHAIN_RPC_URL: z.string().url().optional(),
  /** The local chain mines a block this often, so confirmations advance; 0 mines one per transaction. Default 2, 0 under NODE_ENV=test. */
  SANDBOX_CHAIN_BLOCK_TIME_SECONDS: z.coerce.number().int().min(0).max(60).optional(),
  /**
   * Whether the sandbox sweeps confirmed deposits to its treasuries, as production does with a sweep key. Default on, off
   * under NODE_ENV=test: on a chain that mines a block per transaction, a sweep's two transactions are two more blocks,
   * which would move every other test's confirmations (the sweep tests turn it on).
   */
  SANDBOX_CHAIN_SWEEPS: z.enum(['on', 'off']).optional(),
  /** Confirmations a sandbox deposit or payout waits for. */
  SANDBOX_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(3),
  /** How often each chain watcher and payout sender polls its chain; 0 turns them off (tests drive them). Default 1000, 0 under NODE_ENV=test. */
  CHAIN_POLL_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  /**
   * How long one JSON-RPC request to a chain may take before the chain counts as unreachable (503 `chain_unavailable`):
   * a slow or hung node must not hold a request, a job or a database connection for longer.
   */
  CHAIN_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** A sent payout not mined after this long is sent again with higher fees under the same nonce. */
  PAYOUT_REPLACE_AFTER_SECONDS: z.coerce.number().int().min(1).default(120),
  /** The highest max fee per gas, in gwei, a stuck transaction is replaced with: past it, it waits as it is. */
  CHAIN_FEE_CEILING_GWEI: z.coerce.number().int().min(1).default(1000),
  /**
   * Tests only (ignored unless NODE_ENV=test): the step of a money path where the process kills itself, right after
   * what must be sent was stored and committed, before it is sent (modules/custody/crash-points.ts).
   */
  TEST_CRASH_AT: z.enum(CRASH_POINTS).optional(),
  ...productionChainSettings(),
});

/**
 * Production's EVM networks, each configured by `EVM_<NETWORK>_…` (docs/operations/chains.md). A network with none of them set
 * is not connected (`rails_not_connected`); one with some set must have them all, checked at start.
 */
function productionChainSettings() {
  const settings: Record<string, z.ZodTypeAny> = {};
  for (const network of EVM_NETWORKS) {
    const prefix = `EVM_${network.toUpperCase()}_`;
    Object.assign(settings, {
      [`${prefix}RPC_URLS`]: list.pipe(z.array(z.string().url('must be http(s) URLs, comma separated')).min(1)).optional(),
      [`${prefix}CHAIN_ID`]: z.coerce.number().int().min(1).optional(),
      [`${prefix}USDC_ADDRESS`]: z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address')
        .optional(),
      [`${prefix}USDT_ADDRESS`]: z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x address')
        .optional(),
      [`${prefix}CONFIRMATIONS`]: z.coerce.number().int().min(1).max(10_000).optional(),
      [`${prefix}XPUB`]: z.string().refine(isExtendedPublicKeyText, 'must be a BIP-32 extended public key (xpub…), never a private one').optional(),
      [`${prefix}TREASURY_KEY_FILE`]: z.string().min(1).optional(),
      [`${prefix}SWEEP_KEY_FILE`]: z.string().min(1).optional(),
    });
  }
  return settings;
}

export type Config = z.infer<typeof ConfigSchema> & {
  graphiqlEnabled: boolean;
  /** LOG_FORMAT, or its default for NODE_ENV. */
  logFormat: 'pretty' | 'json';
  isProduction: boolean;
  /** The key that encrypts webhook signing secrets at rest. */
  webhookSecretKey: Buffer;
  /** True when WEBHOOK_SECRET_KEY is unset outside production and a fixed, public development key is used. */
  webhookSecretKeyIsDevelopmentKey: boolean;
  /** The master key that wraps customers' data keys (ENCRYPTION_MASTER_KEY, or the development key outside production). */
  encryptionMasterKey: Buffer;
  /** ENCRYPTION_PREVIOUS_MASTER_KEY during a rotation. */
  previousEncryptionMasterKey: Buffer | null;
  /** The key that seals event cursors (EVENT_CURSOR_KEY, or one derived from the webhook secret key). */
  eventCursorKey: Buffer;
  /** SANDBOX_CHAIN, or its default for NODE_ENV. */
  sandboxChain: 'local' | 'simulated';
  sandboxBlockTimeSeconds: number;
  /** SANDBOX_CHAIN_SWEEPS, or its default for NODE_ENV. */
  sandboxChainSweeps: boolean;
  chainPollIntervalMs: number;
  /** Ramp's paying account at its bank, when BANK_DEBTOR_* name one (rails/registry.ts reads it). */
  bankDebtor: BankDebtorConfig | null;
  /** Production's bank, when BANK_ISO20022_DIR and BANK_DEBTOR_* connect it (rails/registry.ts); null: rails_not_connected. */
  productionBank: ProductionBankConfig | null;
  /** Production's configured EVM networks (rails/registry.ts reads them). */
  productionChains: ProductionChainConfig[];
  /** NETWORK_TOKENS, or the pairs their issuers run. */
  networkTokens: NetworkTokens;
  /** Where spans are exported (OTLP/HTTP), or null: tracing off, only a caller's traceparent is carried (platform/observability/tracing.ts). */
  otlpTracesUrl: string | null;
};

/** Ramp's own account that pays fiat payouts: an IBAN with its BIC, or a US account and routing number. */
export interface BankDebtorConfig {
  name: string;
  iban: { ibanNumber: string; bic: string } | null;
  us: { accountNumber: string; routingNumber: string } | null;
}

function bankDebtorOf(env: Partial<Record<`BANK_DEBTOR_${string}`, string>>): BankDebtorConfig | null {
  const {
    BANK_DEBTOR_NAME: name,
    BANK_DEBTOR_IBAN: iban,
    BANK_DEBTOR_BIC: bic,
    BANK_DEBTOR_ACCOUNT_NUMBER: account,
    BANK_DEBTOR_ROUTING_NUMBER: routing,
  } = env;
  if ([name, iban, bic, account, routing].every((value) => value === undefined)) return null;
  const complete = name !== undefined && ((iban !== undefined && bic !== undefined) || (account !== undefined && routing !== undefined));
  if (!complete) {
    throw new Refusal(
      "Invalid configuration: BANK_DEBTOR_* name Ramp's paying account whole: BANK_DEBTOR_NAME with BANK_DEBTOR_IBAN and BANK_DEBTOR_BIC, or with BANK_DEBTOR_ACCOUNT_NUMBER and BANK_DEBTOR_ROUTING_NUMBER",
    );
  }
  return {
    name,
    iban: iban !== undefined && bic !== undefined ? { ibanNumber: iban, bic } : null,
    us: account !== undefined && routing !== undefined ? { accountNumber: account, routingNumber: routing } : null,
  };
}

/** Production's ISO 20022 bank: its folder, and Ramp's account there, which pays payouts and collects on-ramps. */
export interface ProductionBankConfig {
  dir: string;
  bankName: string;
  bankAddress: string;
  account: BankDebtorConfig;
  /** The bank's range for virtual accounts (BANK_VIRTUAL_ACCOUNTS), or null: none issued by Ramp. */
  virtualAccounts: VirtualAccountRange | null;
}

/** Account numbers `first` to `last`, each written with `digits` digits. */
export interface VirtualAccountRange {
  first: bigint;
  last: bigint;
  digits: number;
}

function virtualAccountRangeOf(range: string | undefined, account: BankDebtorConfig): VirtualAccountRange | null {
  if (range === undefined) return null;
  const [first, last] = range.split('-') as [string, string];
  if (first.length !== last.length || BigInt(first) > BigInt(last)) {
    throw new Refusal('Invalid configuration: BANK_VIRTUAL_ACCOUNTS must run from the lower number to the higher, both with as many digits');
  }
  // The virtual IBAN keeps Ramp's bank code: only trailing digits of its account number (of the BBAN) may vary.
  if (account.iban && first.length > /[0-9]*$/.exec(account.iban.ibanNumber.slice(4))![0].length) {
    throw new Refusal('Invalid configuration: BANK_VIRTUAL_ACCOUNTS has more digits than the account number of BANK_DEBTOR_IBAN ends with');
  }
  return { first: BigInt(first), last: BigInt(last), digits: first.length };
}

/**
 * One folder serves one environment: under SANDBOX_BANK=iso20022 it is the sandbox's (its simulator, or a test playing
 * the bank, answers there), so production stays unconnected; otherwise a folder and Ramp's account connect production.
 */
function productionBankOf(env: z.infer<typeof ConfigSchema>, account: BankDebtorConfig | null): ProductionBankConfig | null {
  if (env.SANDBOX_BANK === 'iso20022' || !env.BANK_ISO20022_DIR || !account) return null;
  if (!env.BANK_NAME || !env.BANK_ADDRESS) {
    throw new Refusal(
      "Invalid configuration: BANK_ISO20022_DIR with BANK_DEBTOR_* connects production's bank; set BANK_NAME and BANK_ADDRESS too, which its deposit instructions show",
    );
  }
  return {
    dir: env.BANK_ISO20022_DIR,
    bankName: env.BANK_NAME,
    bankAddress: env.BANK_ADDRESS,
    account,
    virtualAccounts: virtualAccountRangeOf(env.BANK_VIRTUAL_ACCOUNTS, account),
  };
}

export interface ProductionChainConfig {
  network: Network;
  rpcUrls: string[];
  chainId: number;
  tokens: { token: 'usdc' | 'usdt'; contractAddress: string }[];
  confirmations: number;
  xpub: string;
  treasuryKeyFile: string;
  /** The xprv of XPUB's node, when Ramp may sweep deposits itself (rails/evm/hd.ts). */
  sweepKeyFile: string | null;
}

/** BVNK's counts, which the issue names: a network's default when EVM_<NETWORK>_CONFIRMATIONS is unset. */
const DEFAULT_CONFIRMATIONS: Record<string, number> = { ethereum: 12, polygon: 12, base: 10, arbitrum: 300 };

function productionChainsOf(env: Record<string, unknown>): ProductionChainConfig[] {
  return EVM_NETWORKS.flatMap((network) => {
    const prefix = `EVM_${network.toUpperCase()}_`;
    const get = (name: string) => env[`${prefix}${name}`];
    const names = ['RPC_URLS', 'CHAIN_ID', 'USDC_ADDRESS', 'USDT_ADDRESS', 'CONFIRMATIONS', 'XPUB', 'TREASURY_KEY_FILE', 'SWEEP_KEY_FILE'];
    if (names.every((name) => get(name) === undefined)) return [];
    const missing = ['RPC_URLS', 'CHAIN_ID', 'XPUB', 'TREASURY_KEY_FILE'].filter((name) => get(name) === undefined);
    if (get('USDC_ADDRESS') === undefined && get('USDT_ADDRESS') === undefined) missing.push(`USDC_ADDRESS or ${prefix}USDT_ADDRESS`);
    if (missing.length) {
      throw new Refusal(`Invalid configuration: ${network} is partly configured; set ${missing.map((name) => prefix + name).join(', ')} too`);
    }
    const tokens = (['usdc', 'usdt'] as const).flatMap((token) => {
      const address = get(`${token.toUpperCase()}_ADDRESS`) as string | undefined;
      return address ? [{ token, contractAddress: address }] : [];
    });
    return [
      {
        network,
        rpcUrls: get('RPC_URLS') as string[],
        chainId: get('CHAIN_ID') as number,
        tokens,
        confirmations: (get('CONFIRMATIONS') as number | undefined) ?? DEFAULT_CONFIRMATIONS[network]!,
        xpub: get('XPUB') as string,
        treasuryKeyFile: get('TREASURY_KEY_FILE') as string,
        sweepKeyFile: (get('SWEEP_KEY_FILE') as string | undefined) ?? null,
      },
    ];
  });
}

/** OpenTelemetry's rule: the traces endpoint as given, else the base endpoint's `/v1/traces`; nothing when switched off. */
function otlpTracesUrlOf(env: z.infer<typeof ConfigSchema>): string | null {
  if (env.OTEL_SDK_DISABLED || env.OTEL_TRACES_EXPORTER === 'none') return null;
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return env.OTEL_EXPORTER_OTLP_ENDPOINT ? `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : null;
}

// Fixed and public on purpose: only for development and tests, where no real secret is at stake.
const DEVELOPMENT_WEBHOOK_SECRET_KEY = createHash('sha256').update('ramp development webhook secret key').digest();
// Same: `npm start` and the tests need no configuration, and a sandbox database holds no real person's data.
const DEVELOPMENT_ENCRYPTION_MASTER_KEY = createHash('sha256').update('ramp development encryption master key').digest();

const isDevelopmentKey = (base64: string | undefined, development: Buffer) => base64 !== undefined && Buffer.from(base64, 'base64').equals(development);

/** Parses the environment once at start; a bad value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Refusal(`Invalid configuration: ${problems}`);
  }
  const isProduction = parsed.data.NODE_ENV === 'production';
  const isTest = parsed.data.NODE_ENV === 'test';
  if (parsed.data.DATABASE_OWNER_URL && !parsed.data.DATABASE_URL) {
    throw new Refusal('Invalid configuration: DATABASE_OWNER_URL (the role that migrates) needs DATABASE_URL (the role Ramp runs as) beside it');
  }
  if (isProduction && !parsed.data.WEBHOOK_SECRET_KEY) {
    throw new Refusal('Invalid configuration: WEBHOOK_SECRET_KEY is required when NODE_ENV=production');
  }
  if (isProduction && !parsed.data.ENCRYPTION_MASTER_KEY) {
    throw new Refusal(
      "Invalid configuration: ENCRYPTION_MASTER_KEY is required when NODE_ENV=production (32 random bytes, base64: openssl rand -base64 32); it protects customers' personal data at rest",
    );
  }
  // Set, but to the development key anyone can derive from this file: as good as no key at all.
  if (isProduction && isDevelopmentKey(parsed.data.ENCRYPTION_MASTER_KEY, DEVELOPMENT_ENCRYPTION_MASTER_KEY)) {
    throw new Refusal(
      'Invalid configuration: ENCRYPTION_MASTER_KEY is the public development key, which protects nothing; set 32 random bytes of your own (openssl rand -base64 32)',
    );
  }
  if (isProduction && isDevelopmentKey(parsed.data.WEBHOOK_SECRET_KEY, DEVELOPMENT_WEBHOOK_SECRET_KEY)) {
    throw new Refusal(
      'Invalid configuration: WEBHOOK_SECRET_KEY is the public development key, which protects nothing; set 32 random bytes of your own (openssl rand -base64 32)',
    );
  }
  if (parsed.data.SANDBOX_BANK === 'iso20022' && !parsed.data.BANK_ISO20022_DIR) {
    throw new Refusal('Invalid configuration: SANDBOX_BANK=iso20022 needs BANK_ISO20022_DIR, the folder the bank files travel through');
  }
  const debtor = bankDebtorOf(parsed.data);
  const networkTokens = parsed.data.NETWORK_TOKENS === undefined ? AVAILABLE_NETWORK_TOKENS : parseNetworkTokens(parsed.data.NETWORK_TOKENS);
  if ('problem' in networkTokens) throw new Refusal(`Invalid configuration: NETWORK_TOKENS: ${networkTokens.problem}`);
  const webhookSecretKey = parsed.data.WEBHOOK_SECRET_KEY ? Buffer.from(parsed.data.WEBHOOK_SECRET_KEY, 'base64') : DEVELOPMENT_WEBHOOK_SECRET_KEY;
  return {
    ...parsed.data,
    isProduction,
    graphiqlEnabled: parsed.data.GRAPHQL_INTROSPECTION ?? !isProduction,
    logFormat: parsed.data.LOG_FORMAT ?? (parsed.data.NODE_ENV === 'development' ? 'pretty' : 'json'),
    webhookSecretKey,
    webhookSecretKeyIsDevelopmentKey: !parsed.data.WEBHOOK_SECRET_KEY,
    encryptionMasterKey: parsed.data.ENCRYPTION_MASTER_KEY ? Buffer.from(parsed.data.ENCRYPTION_MASTER_KEY, 'base64') : DEVELOPMENT_ENCRYPTION_MASTER_KEY,
    previousEncryptionMasterKey: parsed.data.ENCRYPTION_PREVIOUS_MASTER_KEY ? Buffer.from(parsed.data.ENCRYPTION_PREVIOUS_MASTER_KEY, 'base64') : null,
    sandboxChain: parsed.data.SANDBOX_CHAIN ?? (isTest ? 'simulated' : 'local'),
    sandboxChainSweeps: (parsed.data.SANDBOX_CHAIN_SWEEPS ?? (isTest ? 'off' : 'on')) === 'on',
    sandboxBlockTimeSeconds: parsed.data.SANDBOX_CHAIN_BLOCK_TIME_SECONDS ?? (isTest ? 0 : 2),
    chainPollIntervalMs: parsed.data.CHAIN_POLL_INTERVAL_MS ?? (isTest ? 0 : 1000),
    productionChains: productionChainsOf(parsed.data),
    bankDebtor: debtor,
    productionBank: productionBankOf(parsed.data, debtor),
    networkTokens,
    otlpTracesUrl: otlpTracesUrlOf(parsed.data),
    // Derived rather than required, so production needs no new secret; its own setting lets it change without the other.
    eventCursorKey: parsed.data.EVENT_CURSOR_KEY
      ? Buffer.from(parsed.data.EVENT_CURSOR_KEY, 'base64')
      : Buffer.from(hkdfSync('sha256', webhookSecretKey, '', 'ramp event cursors', 32)),
  };
}

export function publicUrl(config: Config, port: number): string {
  return config.PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
}
