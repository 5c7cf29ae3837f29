import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const ENCRYPTED_PREFIX = 'v1:';

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export const newSigningSecret = () => SECRET_PREFIX + randomBytes(32).toString('base64');

/** The HMAC key of a secret: the base64-decoded part after `whsec_`, as Standard Webhooks libraries use it. */
export const signingKeyOf = (secret: string) => Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');

/**
 * Encrypts a signing secret for storage (AES-256-GCM). The endpoint id is bound in as associated
 * data, so a ciphertext copied onto another endpoint's row does not decrypt.
 */
export function encryptSecret(key: Buffer, endpointId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(endpointId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ENCRYPTED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
}

export function decryptSecret(key: Buffer, endpointId: string, stored: string): string {
  if (!stored.startsWith(ENCRYPTED_PREFIX)) throw new Error('unknown webhook secret encryption format');
  const raw = Buffer.from(stored.slice(ENCRYPTED_PREFIX.length), 'base64');
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

/**
 * Standard Webhooks headers (`v1,` base64 HMAC-SHA256 of `id.timestamp.body`, one signature per
 * valid secret, space separated) and Align's `x-hmac-signature` (hex HMAC-SHA256 of the body),
 * keyed by the current secret.
 */
export function signDelivery(secrets: string[], messageId: string, timestamp: Date, body: string): SignedHeaders {
  const seconds = Math.floor(timestamp.getTime() / 1000).toString();
  const signatures = secrets.map((secret) => `v1,${createHmac('sha256', signingKeyOf(secret)).update(`${messageId}.${seconds}.${body}`).digest('base64')}`);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': seconds,
    'webhook-signature': signatures.join(' '),
    'x-hmac-signature': createHmac('sha256', signingKeyOf(secrets[0]!)).update(body).digest('hex'),
  };
}
