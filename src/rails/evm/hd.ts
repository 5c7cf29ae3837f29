import { secp256k1 } from '@noble/curves/secp256k1';
import { type Hex, bytesToHex, getAddress, serializeTransaction } from 'viem';
import { HDKey, mnemonicToAccount, privateKeyToAccount, publicKeyToAddress } from 'viem/accounts';
import { mnemonicToSeedSync } from '@scure/bip39';
import type { Signer } from '../port.js';

/**
 * Keys and addresses (BIP-32/44). The server derives deposit addresses from an extended public key
 * alone: the `m/44'/60'/account'/0` node's xpub, whose non-hardened children 0, 1, 2… are the
 * addresses. Whoever holds the matching private key (a KMS, or the sandbox's public mnemonic) can
 * sweep them; the service that hands addresses out never needs it.
 */

/** The deposit address at `index` under `xpub` (EIP-55). */
export function depositAddressAt(xpub: string, index: number): string {
  const child = HDKey.fromExtendedKey(xpub).deriveChild(index);
  const uncompressed = secp256k1.ProjectivePoint.fromHex(child.publicKey!).toRawBytes(false);
  return getAddress(publicKeyToAddress(bytesToHex(uncompressed)));
}

/** Whether `xpub` is an extended public key (and not a private one, which the server must not hold). */
export function isExtendedPublicKey(xpub: string): boolean {
  try {
    const key = HDKey.fromExtendedKey(xpub);
    return key.privateKey === null && key.publicKey !== null;
  } catch {
    return false;
  }
}

/**
 * The signer of the deposit address at `index` under an extended private key of the same node as the configured
 * xpub (production's EVM_<NETWORK>_SWEEP_KEY_FILE); null when the two are not one key pair.
 */
export function depositSignerFrom(xprv: string, xpub: string): ((index: number) => Signer) | null {
  const node = HDKey.fromExtendedKey(xprv);
  if (!node.privateKey || node.publicExtendedKey !== xpub) return null;
  return (index) => signerFromPrivateKey(bytesToHex(node.deriveChild(index).privateKey!));
}

/** The xpub of `m/44'/60'/account'/0` of a mnemonic (sandbox and tests; production configures its xpub). */
export function accountXpub(mnemonic: string, account: number): string {
  return HDKey.fromMasterSeed(mnemonicToSeedSync(mnemonic)).derive(`m/44'/60'/${account}'/0`).publicExtendedKey;
}

/** A `Signer` over a key held in this process: the sandbox's, or a production key from a file. */
function localSigner(account: Pick<ReturnType<typeof privateKeyToAccount>, 'address' | 'signTransaction'>): Signer {
  return {
    address: account.address,
    signTransaction: (tx) => account.signTransaction({ type: 'eip1559', ...tx, to: tx.to as Hex, data: tx.data as Hex }, { serializer: serializeTransaction }),
  };
}

export const signerFromPrivateKey = (privateKey: string): Signer => localSigner(privateKeyToAccount(privateKey as Hex));

/** The signer of `m/44'/60'/account'/0/index` of a mnemonic. */
export const signerFromMnemonic = (mnemonic: string, account: number, index: number): Signer =>
  localSigner(mnemonicToAccount(mnemonic, { accountIndex: account, addressIndex: index }));
