import { z } from 'zod';

const shareToken = z.string().trim().min(1, 'must not be empty').max(4096);

/** The use case's input: a KYC provider's share token, redeemed once. */
export const KycShareImport = z.strictObject({ providerSharedToken: shareToken });
export type KycShareImport = z.input<typeof KycShareImport>;

/** POST /auth/importKYC (spec §4.1): one field, spelled as the Encryptus API spells it. */
export const ImportKycBody = z
  .strictObject({ providersharedtoken: shareToken })
  .transform((b): KycShareImport => ({ providerSharedToken: b.providersharedtoken }));

/** The use case's pointers in the body's spelling. */
export const IMPORT_KYC_POINTERS = { '/providerSharedToken': '/providersharedtoken' };
