import { createHmac, createSecretKey, hash, hkdfSync, timingSafeEqual } from 'node:crypto';

const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Bound on the binding keys kept: one per tenant and list in use; past it the cache starts again. */
const MAX_BINDINGS = 10_000;
const TAG = 1;
const MASK = 2;

/**
 * Page cursors bound to their binding (tenant and list) at the cost of two one-shot hashes each.
 *
 * A cursor needs binding, not secrecy: it names a sort position the client already sees. Sealing each one with an
 * HMAC and a cipher made a page of 100 edges cost 200 crypto objects, a third of a Relay page's time. Here one HMAC
 * per binding (kept) gives a binding key `k`; a cursor's tag is SHA-256(k ‖ 1 ‖ position) cut to 16 bytes, and the
 * position is masked with SHA-256(k ‖ 2 ‖ tag), the synthetic-IV shape of AES-SIV with a hash for the cipher. The
 * input has a fixed length and the output is cut, so no length extension applies; the key comes first, so the hash
 * is a keyed PRF. Deterministic (one position, one cursor) and authenticated (another binding, another key or one
 * changed character opens to nothing).
 */
export interface PageCursorCodec {
  seal(context: string, contents: Buffer): string;
  /** The contents, or null unless `token` is exactly what `seal(context, …)` gave. */
  open(context: string, token: string): Buffer | null;
}

export function pageCursorCodec(key: Buffer, size: number): PageCursorCodec {
  if (size > 32) throw new Error('a page cursor masks at most 32 bytes (one SHA-256 output)');
  const root = createSecretKey(Buffer.from(hkdfSync('sha256', key, '', 'ramp page cursor v2', 32)));
  const bindings = new Map<string, Buffer>();
  const bindingKey = (context: string) => {
    let k = bindings.get(context);
    if (!k) {
      if (bindings.size >= MAX_BINDINGS) bindings.clear();
      k = createHmac('sha256', root).update(context).digest();
      bindings.set(context, k);
    }
    return k;
  };
  // One scratch buffer for the hashes' input (k ‖ domain ‖ data): the calls are synchronous, so nothing else uses it
  // meanwhile, and a page's 200 hashes allocate nothing but their outputs.
  const scratch = Buffer.alloc(32 + 1 + Math.max(size, TAG_BYTES));
  const keyed = (k: Buffer, domain: number, data: Buffer) => {
    k.copy(scratch, 0);
    scratch[32] = domain;
    data.copy(scratch, 33);
    return hash('sha256', scratch.subarray(0, 33 + data.length), 'buffer');
  };
  const tagOf = (k: Buffer, contents: Buffer) => keyed(k, TAG, contents).subarray(0, TAG_BYTES);
  /** `data` masked (or unmasked: XOR is its own inverse) into `out` from `at`. */
  const mask = (k: Buffer, tag: Buffer, data: Buffer, out: Buffer, at: number) => {
    const pad = keyed(k, MASK, tag);
    for (let i = 0; i < data.length; i++) out[at + i] = data[i]! ^ pad[i]!;
  };

  return {
    seal(context, contents) {
      const k = bindingKey(context);
      const token = Buffer.allocUnsafe(TAG_BYTES + contents.length);
      tagOf(k, contents).copy(token, 0);
      mask(k, token.subarray(0, TAG_BYTES), contents, token, TAG_BYTES);
      return token.toString('base64url');
    },
    open(context, token) {
      if (!BASE64URL.test(token)) return null;
      const bytes = Buffer.from(token, 'base64url');
      // Node decodes leniently: only the one spelling of these bytes is theirs.
      if (bytes.length !== TAG_BYTES + size || bytes.toString('base64url') !== token) return null;
      const k = bindingKey(context);
      const tag = bytes.subarray(0, TAG_BYTES);
      const contents = Buffer.allocUnsafe(size);
      mask(k, tag, bytes.subarray(TAG_BYTES), contents, 0);
      return timingSafeEqual(tag, tagOf(k, contents)) ? contents : null;
    },
  };
}
