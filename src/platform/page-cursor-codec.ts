import { createHmac, createSecretKey, hash, hkdfSync, timingSafeEqual } from 'node:crypto';

const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Bound on the binding keys kept: one per tenant and list in use; past it the cache starts again. */
const MAX_BINDINGS = 10_000;
const TAG = 1;
const MASK = 2;
/** The domain of the tag of a cursor of the current shape (position, then tag). */
const CLEAR_TAG = 3;
const PAD = 4;

/**
 * Page cursors bound to their binding (tenant and list) at the cost of one one-shot hash each.
 *
 * A cursor needs binding, not secrecy: it names a sort position the client already sees (the node's id and
 * createdAt). Sealing each one with an HMAC and a cipher made a page of 100 edges cost 200 crypto objects, a third of
 * a Relay page's time. Here one HMAC per binding (kept) gives a binding key `k`, and from it a pad, SHA-256(k ‖ 4),
 * kept too. A cursor is the position XOR the pad, then its tag, SHA-256(k ‖ 3 ‖ position) cut to 16 bytes: one hash
 * per edge. The pad keeps a cursor from reading as a time and an id (so no client starts parsing it), at no cost
 * per edge; it hides nothing the tag would need hidden. The hash's input has a fixed length and its output is cut,
 * so no length extension applies; the key comes first, so the hash is a keyed PRF. Deterministic (one position,
 * one cursor) and authenticated (another binding, another key or one changed character opens to nothing).
 *
 * Cursors of the previous shape (the tag first, then the position masked with SHA-256(k ‖ 2 ‖ tag)) are still
 * taken back, so clients paging across an upgrade keep their place; only a cursor of that shape pays for the check.
 */
export interface PageCursorCodec {
  seal(context: string, contents: Buffer): string;
  /** The contents, or null unless `token` is exactly what `seal(context, …)` gave. */
  open(context: string, token: string): Buffer | null;
}

export function pageCursorCodec(key: Buffer, size: number): PageCursorCodec {
  if (size > 32) throw new Error('a page cursor masks at most 32 bytes (one SHA-256 output)');
  const root = createSecretKey(Buffer.from(hkdfSync('sha256', key, '', 'ramp page cursor v2', 32)));
  // One scratch buffer for the hashes' input (k ‖ domain ‖ data): the calls are synchronous, so nothing else uses it
  // meanwhile, and a page's 100 hashes allocate nothing but their outputs.
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

  const bindings = new Map<string, { k: Buffer; pad: Buffer }>();
  const bindingOf = (context: string) => {
    let binding = bindings.get(context);
    if (!binding) {
      if (bindings.size >= MAX_BINDINGS) bindings.clear();
      const k = createHmac('sha256', root).update(context).digest();
      binding = { k, pad: keyed(k, PAD, Buffer.alloc(0)) };
      bindings.set(context, binding);
    }
    return binding;
  };

  return {
    seal(context, contents) {
      const { k, pad } = bindingOf(context);
      const token = Buffer.allocUnsafe(contents.length + TAG_BYTES);
      for (let i = 0; i < contents.length; i++) token[i] = contents[i]! ^ pad[i]!;
      keyed(k, CLEAR_TAG, contents).copy(token, contents.length, 0, TAG_BYTES);
      return token.toString('base64url');
    },
    open(context, token) {
      if (!BASE64URL.test(token)) return null;
      const bytes = Buffer.from(token, 'base64url');
      // Node decodes leniently: only the one spelling of these bytes is theirs.
      if (bytes.length !== TAG_BYTES + size || bytes.toString('base64url') !== token) return null;
      const { k, pad } = bindingOf(context);
      const clear = Buffer.allocUnsafe(size);
      for (let i = 0; i < size; i++) clear[i] = bytes[i]! ^ pad[i]!;
      if (timingSafeEqual(bytes.subarray(size), keyed(k, CLEAR_TAG, clear).subarray(0, TAG_BYTES))) return clear;
      // The previous shape: tag first, then the masked position.
      const tag = bytes.subarray(0, TAG_BYTES);
      const contents = Buffer.allocUnsafe(size);
      mask(k, tag, bytes.subarray(TAG_BYTES), contents, 0);
      return timingSafeEqual(tag, tagOf(k, contents)) ? contents : null;
    },
  };
}
