import { type KeyObject, createCipheriv, createDecipheriv, createHash, createSecretKey, randomBytes } from 'node:crypto';

/**
 * Encryption at rest, knowing no feature, and Ramp's one codec for a value kept sealed: AES-256-GCM from
 * node:crypto with a random 96-bit nonce, a value sealed as one versioned string
 * `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64 parts), so a reader knows which key opens it and a later format
 * can sit beside this one. What it seals: customers' personal data under their data keys, and, under the master
 * key, those data keys (`wrap`) and webhook signing secrets. The master key's id is its fingerprint, so one
 * rotation re-seals everything the old one sealed.
 *
 * Why GCM with random nonces and no misuse-resistant mode (GCM-SIV): every value is sealed once per write, by keys
 * that seal few values (a customer's data key, the master key for keys and secrets), far below the 2^32 sealings per
 * key where random nonces start to risk a repeat; node:crypto needs no dependency; and nothing here wants
 * deterministic ciphertexts (what must compare equal compares a keyed digest instead).
 */
const VERSION = 'v1';

export interface SealingKey {
  /** Named in every value it seals; never secret. */
  id: string;
  key: Buffer;
}

/** A master key from its 32 bytes; its id is a fingerprint (a hash prefix), which reveals nothing of it. */
export function masterKeyOf(key: Buffer): SealingKey {
  if (key.length !== 32) throw new Error('a master key is 32 bytes');
  return { id: createHash('sha256').update('ramp master key id').update(key).digest('hex').slice(0, 16), key };
}

/**
 * Each key's KeyObject, made once: node:crypto turns a raw Buffer key into one at every cipher it makes, and that
 * conversion was most of the cost of opening a page of customers' values.
 */
const keyObjects = new WeakMap<Buffer, KeyObject>();
export const keyObjectOf = (key: Buffer): KeyObject => {
  let made = keyObjects.get(key);
  if (!made) {
    made = createSecretKey(key);
    keyObjects.set(key, made);
  }
  return made;
};

/** A fresh data key (32 random bytes). */
export const newDataKey = (id: string): SealingKey => ({ id, key: randomBytes(32) });

/** Whether a stored value is sealed (rows written before encryption hold clear text until the backfill seals them). */
export const isSealed = (value: string) => value.startsWith(`${VERSION}:`);

/** The id of the key that sealed `value`. */
export const sealedBy = (value: string) => value.split(':')[1] ?? '';

/**
 * Seals `plaintext` under `key`. `context` (a row's id, say) is bound in as associated data, so a
 * sealed value copied into another row does not open there.
 */
export function seal(key: SealingKey, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyObjectOf(key.key), iv);
  cipher.setAAD(Buffer.from(context));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, key.id, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
}

/** Opens a value `seal` made with this key and context; throws when either is not the one it was sealed with. */
export function open(key: SealingKey, value: string, context: string): string {
  const [version, keyId, iv, tag, sealed] = value.split(':');
  if (version !== VERSION || sealed === undefined) throw new Error('not a sealed value');
  if (keyId !== key.id) throw new Error(`sealed by key ${keyId}, not ${key.id}`);
  const decipher = createDecipheriv('aes-256-gcm', keyObjectOf(key.key), Buffer.from(iv!, 'base64'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag!, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64')), decipher.final()]).toString('utf8');
}

/** A data key wrapped by a master key, for storage. */
export const wrap = (master: SealingKey, dataKey: SealingKey): string => seal(master, dataKey.key.toString('base64'), dataKey.id);

/** Opens a value sealed by whichever of `keys` it names; throws when none of them is that key. */
export function openWith(keys: readonly SealingKey[], value: string, context: string): string {
  const key = keys.find((k) => k.id === sealedBy(value));
  if (!key) throw new Error(`sealed by key ${sealedBy(value)}, which is not configured`);
  return open(key, value, context);
}

/** The data key `wrapped` holds, opened with whichever of `masters` wrapped it. */
export function unwrap(masters: readonly SealingKey[], wrapped: string, id: string): SealingKey {
  const master = masters.find((m) => m.id === sealedBy(wrapped));
  if (!master) throw new Error(`data key ${id} is wrapped by master key ${sealedBy(wrapped)}, which is not configured`);
  return { id, key: Buffer.from(open(master, wrapped, id), 'base64') };
}

/** The master keys in force: the current one seals; during a rotation the previous one still opens what it sealed. */
export interface MasterKeyring {
  current: SealingKey;
  previous: SealingKey | null;
  /** Current first. */
  all: readonly SealingKey[];
}

const keyrings = new WeakMap<Buffer, Map<Buffer | null, MasterKeyring>>();

/** The keyring of ENCRYPTION_MASTER_KEY (and ENCRYPTION_PREVIOUS_MASTER_KEY during a rotation); one object per pair of keys. */
export function masterKeyring(current: Buffer, previous: Buffer | null = null): MasterKeyring {
  let byPrevious = keyrings.get(current);
  if (!byPrevious) {
    byPrevious = new Map();
    keyrings.set(current, byPrevious);
  }
  let ring = byPrevious.get(previous);
  if (!ring) {
    const currentKey = masterKeyOf(current);
    const previousKey = previous ? masterKeyOf(previous) : null;
    ring = { current: currentKey, previous: previousKey, all: previousKey ? [currentKey, previousKey] : [currentKey] };
    byPrevious.set(previous, ring);
  }
  return ring;
}
