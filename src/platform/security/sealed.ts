import { createCipheriv, createHmac, createSecretKey, hkdfSync, timingSafeEqual } from 'node:crypto';

const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Short tokens Ramp hands out and takes back (cursors), sealed so that a client can neither read nor make
 * one. An HMAC of the token's context and contents is the tag, and the contents are encrypted
 * (AES-256-CTR) with the tag as the counter block: the synthetic-IV construction of AES-SIV (RFC 5297).
 * Deterministic, so one position keeps one token however often it is read, and authenticated, so a token
 * sealed for another context (another partner, environment or list), with another key, or changed in any
 * character opens to nothing.
 */
export interface Sealer {
  seal(context: string, contents: Buffer): string;
  /** The contents, or null unless `token` is exactly what `seal(context, …)` gave for contents of `size` bytes. */
  open(context: string, token: string, size: number): Buffer | null;
}

/** A sealer for one `purpose` (its own subkeys, derived from `key`): tokens of one purpose never open as another's. */
export function sealer(key: Buffer, purpose: string): Sealer {
  // Key objects made once: a raw key given to every createHmac/createCipheriv is imported again each call (a page of
  // 100 cursors is 100 seals).
  const subkey = (use: string) => createSecretKey(Buffer.from(hkdfSync('sha256', key, '', `${purpose} ${use}`, 32)));
  const macKey = subkey('tag');
  const encryptionKey = subkey('encryption');

  const tagOf = (context: string, contents: Buffer) => createHmac('sha256', macKey).update(context).update(contents).digest().subarray(0, TAG_BYTES);
  // CTR is its own inverse: the same call seals and opens.
  const ctr = (tag: Buffer, data: Buffer) => {
    const cipher = createCipheriv('aes-256-ctr', encryptionKey, tag);
    return Buffer.concat([cipher.update(data), cipher.final()]);
  };

  return {
    seal(context, contents) {
      const tag = tagOf(context, contents);
      return Buffer.concat([tag, ctr(tag, contents)]).toString('base64url');
    },
    open(context, token, size) {
      if (!BASE64URL.test(token)) return null;
      const sealed = Buffer.from(token, 'base64url');
      // Node decodes leniently: only the one spelling of these bytes is theirs.
      if (sealed.length !== TAG_BYTES + size || sealed.toString('base64url') !== token) return null;
      const tag = sealed.subarray(0, TAG_BYTES);
      const contents = ctr(tag, sealed.subarray(TAG_BYTES));
      return timingSafeEqual(tag, tagOf(context, contents)) ? contents : null;
    },
  };
}
