import { z } from 'zod';
import { SANDBOX_EXAMPLE_TOKEN } from './sandbox-provider.js';

const shareToken = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(4096)
  .meta({
    description:
      "The KYC provider's share token; the sandbox's are approve_<applicant>, reject_<applicant> and review_<applicant> (6–64 letters, digits or dashes)",
    examples: [SANDBOX_EXAMPLE_TOKEN],
    'x-ramp-checks': 'redeemed with the KYC provider',
  });

/** The use case's input: a KYC provider's share token, redeemed once. */
export const KycShareImport = z.strictObject({ providerSharedToken: shareToken });
export type KycShareImport = z.input<typeof KycShareImport>;

/** POST /auth/importKYC: one field, spelled as the Encryptus API spells it. */
export const ImportKycBody = z
  .strictObject({ providersharedtoken: shareToken })
  .transform((b): KycShareImport => ({ providerSharedToken: b.providersharedtoken }));

/** The use case's pointers in the body's spelling. */
export const IMPORT_KYC_POINTERS = { '/providerSharedToken': '/providersharedtoken' };
