import { z } from 'zod';

/** POST /auth/importKYC (spec §4.1): one field, the provider's share token. */
export const ImportKycInput = z.strictObject({
  providersharedtoken: z.string().trim().min(1, 'must not be empty').max(4096),
});
