import { type KeyObject, createDecipheriv, createHmac, createSecretKey, randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { type MasterKeyring, isSealed, masterKeyring, openWith, seal, sealedBy } from '../../platform/security/sealing.js';

const SECRET_PREFIX = 'whsec_';
/** How secrets were stored before they joined the one codec: `v1:` and base64 of iv, tag and ciphertext, under WEBHOOK_SECRET_KEY. */
const LEGACY_FORMAT = /^v1:[A-Za-z0-9+/]+=*$/;

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export const newSigningSecret = () => SECRET_PREFIX + randomBytes(32).toString('base64');

/** The HMAC key of a secret: the base64-decoded part after `whsec_`, as Standard Webhooks libraries use it. */
export const signingKeyOf = (secret: string) => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

/** What a secret is sealed with: the endpoint, so a sealed secret copied onto another endpoint's row does not open. */
const contextOf = (endpointId: string) => `webhook signing secret ${endpointId}`;

/**
 * Signing secrets at rest, sealed by the master key with the platform's one codec (platform/security/sealing.ts), so a
 * master key rotation re-seals them with the customers' data keys. Secrets stored in the earlier format (under
 * WEBHOOK_SECRET_KEY) still open, until the `reseal-webhook-secrets` job or `npm run keys:rotate-master` re-seals them.
 */
export interface SigningSecrets {
  seal(endpointId: string, secret: string): string;
  open(endpointId: string, stored: string): string;
  /** Whether a stored secret is sealed by the current master key (nothing to re-seal). */
  isCurrent(stored: string): boolean;
  /** How every secret sealed by the current master key starts (for finding the others in SQL). */
  currentPrefix: string;
}

export function signingSecrets(masters: MasterKeyring, legacyKey: Buffer): SigningSecrets {
  return {
    seal: (endpointId, secret) => seal(masters.current, secret, contextOf(endpointId)),
    open(endpointId, stored) {
      if (LEGACY_FORMAT.test(stored)) return openLegacy(legacyKey, endpointId, stored);
      if (!isSealed(stored)) throw new Error('unknown webhook secret format');
      return openWith(masters.all, stored, contextOf(endpointId));
    },
    isCurrent: (stored) => !LEGACY_FORMAT.test(stored) && sealedBy(stored) === masters.current.id,
    currentPrefix: `v1:${masters.current.id}:`,
  };
}

/** The keys a configuration names for signing secrets. */
export type SecretKeysConfig = Pick<Config, 'encryptionMasterKey' | 'previousEncryptionMasterKey' | 'webhookSecretKey'>;
const made = new WeakMap<MasterKeyring, WeakMap<Buffer, SigningSecrets>>();

/** The signing secrets of a configuration: one object per set of keys, so what is cached by it is cached once. */
export function signingSecretsOf(config: SecretKeysConfig): SigningSecrets {
  const masters = masterKeyring(config.encryptionMasterKey, config.previousEncryptionMasterKey);
  let byLegacy = made.get(masters);
  if (!byLegacy) {
    byLegacy = new WeakMap();
    made.set(masters, byLegacy);
  }
  let secrets = byLegacy.get(config.webhookSecretKey);
  if (!secrets) {
    secrets = signingSecrets(masters, config.webhookSecretKey);
    byLegacy.set(config.webhookSecretKey, secrets);
  }
  return secrets;
}

/** A secret stored in the earlier format: AES-256-GCM under WEBHOOK_SECRET_KEY, the endpoint id as associated data. */
function openLegacy(key: Buffer, endpointId: string, stored: string): string {
  const raw = Buffer.from(stored.slice('v1:'.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(endpointId));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'x-hmac-signature': string;
}

/** Signing keys made once per secret (at most this many kept): an HMAC keyed by raw bytes costs six times one keyed by a key object (Node 24). */
const MAX_HMAC_KEYS = 1_000;
const hmacKeys = new Map<string, KeyObject>();
function hmacKeyOf(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) {
    if (hmacKeys.size >= MAX_HMAC_KEYS) hmacKeys.clear();
    key = createSecretKey(signingKeyOf(secret));
    hmacKeys.set(secret, key);
  }
  return key;
}

/**
 * Standard Webhooks headers (`v1,` base64 HMAC-SHA256 of `id.timestamp.body`, one signature per
 * valid secret, space separated) and Align's `x-hmac-signature` (hex HMAC-SHA256 of the body),
 * keyed by the current secret.
 */
export function signDelivery(secrets: string[], messageId: string, timestamp: Date, body: string): SignedHeaders {
  const seconds = Math.floor(timestamp.getTime() / 1000).toString();
  const signatures = secrets.map((secret) => `v1,${createHmac('sha256', hmacKeyOf(secret)).update(`${messageId}.${seconds}.${body}`).digest('base64')}`);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': seconds,
    'webhook-signature': signatures.join(' '),
    'x-hmac-signature': createHmac('sha256', hmacKeyOf(secrets[0]!)).update(body).digest('hex'),
  };
}
