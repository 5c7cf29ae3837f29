import { type KeyObject, createCipheriv, createHmac, createSecretKey, hash, hkdfSync, timingSafeEqual } from 'node:crypto';

const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** Bound on the binding keys kept: one per tenant and list in use; past it the cache starts again. */
const MAX_BINDINGS = 10_000;
const TAG = 1;
const MASK = 2;
const PAD = 4;
const AES_KEY = 5;
const BLOCK = 16;

/**
 * Page cursors bound to their binding (tenant and list), a whole page's tags made by two AES calls.
 *
 * A cursor needs binding, not secrecy: it names a sort position the client already sees (the node's id and
 * createdAt). Sealing each one with an HMAC and a cipher made a page of 100 edges cost 200 crypto objects, a third of
 * a Relay page's time; a hash per edge still cost a tenth of it. Here one HMAC per binding (kept) gives a binding key
 * `k`, and from it a pad, SHA-256(k ‖ 4), and an AES-256 key, SHA-256(k ‖ 5), both kept. A cursor is the position
 * XOR the pad, then its tag: the CBC-MAC of the position (zero-filled to two blocks) under the AES key. Every
 * position has the same length, where CBC-MAC is a secure MAC; and with a zero IV, CBC-MAC's two steps are two ECB
 * passes over all the page's blocks at once (E(m1), then E(E(m1) ⊕ m2)), so a page of any size costs two cipher
 * calls. The pad keeps a cursor from reading as a time and an id (so no client starts parsing it), at no cost per
 * edge. Deterministic (one position, one cursor) and authenticated (another binding, another key or one changed
 * character opens to nothing).
 *
 * Cursors of the previous shape (the tag first, then the position masked with SHA-256(k ‖ 2 ‖ tag)) are still
 * taken back, so clients paging across an upgrade keep their place; only a cursor of that shape pays for the check.
 */
export interface PageCursorCodec {
  seal(context: string, contents: Buffer): string;
  /** `seal` of each of a page's contents (all of `size` bytes), at the cost of one. */
  sealMany(context: string, contents: readonly Buffer[]): string[];
  /** The contents, or null unless `token` is exactly what `seal(context, …)` gave. */
  open(context: string, token: string): Buffer | null;
}

export function pageCursorCodec(key: Buffer, size: number): PageCursorCodec {
  if (size > 32) throw new Error('a page cursor holds at most 32 bytes (one SHA-256 pad, two AES blocks)');
  const root = createSecretKey(Buffer.from(hkdfSync('sha256', key, '', 'ramp page cursor v2', 32)));
  // One scratch buffer for the hashes' input (k ‖ domain ‖ data): the calls are synchronous, so nothing else uses it
  // meanwhile, and the hashes allocate nothing but their outputs.
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

  const bindings = new Map<string, { k: Buffer; pad: Buffer; aes: KeyObject }>();
  const bindingOf = (context: string) => {
    let binding = bindings.get(context);
    if (!binding) {
      if (bindings.size >= MAX_BINDINGS) bindings.clear();
      const k = createHmac('sha256', root).update(context).digest();
      binding = { k, pad: keyed(k, PAD, Buffer.alloc(0)), aes: createSecretKey(keyed(k, AES_KEY, Buffer.alloc(0))) };
      bindings.set(context, binding);
    }
    return binding;
  };
  const ecb = (key: KeyObject, blocks: Buffer) => {
    const cipher = createCipheriv('aes-256-ecb', key, null).setAutoPadding(false);
    return Buffer.concat([cipher.update(blocks), cipher.final()]);
  };
  /** The CBC-MAC (zero IV) of each of `contents` under `key`, as one buffer of 16-byte tags: two ECB passes in all. */
  const tagsOf = (key: KeyObject, contents: readonly Buffer[]) => {
    const first = Buffer.alloc(BLOCK * contents.length);
    const second = Buffer.alloc(BLOCK * contents.length);
    contents.forEach((c, i) => {
      c.copy(first, i * BLOCK, 0, Math.min(BLOCK, c.length));
      if (c.length > BLOCK) c.copy(second, i * BLOCK, BLOCK);
    });
    const chained = ecb(key, first);
    for (let i = 0; i < chained.length; i++) chained[i]! ^= second[i]!;
    return ecb(key, chained);
  };
  const sealMany = (context: string, contents: readonly Buffer[]) => {
    const { pad, aes } = bindingOf(context);
    const tags = tagsOf(aes, contents);
    return contents.map((c, i) => {
      const token = Buffer.allocUnsafe(c.length + TAG_BYTES);
      for (let j = 0; j < c.length; j++) token[j] = c[j]! ^ pad[j]!;
      tags.copy(token, c.length, i * BLOCK, i * BLOCK + TAG_BYTES);
      return token.toString('base64url');
    });
  };

  return {
    seal: (context, contents) => sealMany(context, [contents])[0]!,
    sealMany,
    open(context, token) {
      if (!BASE64URL.test(token)) return null;
      const bytes = Buffer.from(token, 'base64url');
      // Node decodes leniently: only the one spelling of these bytes is theirs.
      if (bytes.length !== TAG_BYTES + size || bytes.toString('base64url') !== token) return null;
      const { k, pad, aes } = bindingOf(context);
      const clear = Buffer.allocUnsafe(size);
      for (let i = 0; i < size; i++) clear[i] = bytes[i]! ^ pad[i]!;
      if (timingSafeEqual(bytes.subarray(size), tagsOf(aes, [clear]).subarray(0, TAG_BYTES))) return clear;
      // The previous shape: tag first, then the masked position.
      const tag = bytes.subarray(0, TAG_BYTES);
      const contents = Buffer.allocUnsafe(size);
      mask(k, tag, bytes.subarray(TAG_BYTES), contents, 0);
      return timingSafeEqual(tag, tagOf(k, contents)) ? contents : null;
    },
  };
}
