import { encryptusSuccessOf } from '../../rest/openapi/schemas.js';
import { CustomerAnswer } from '../customers/rest-bodies.js';

/** The 201 of POST /auth/importKYC: the customer the provider's verification made or updated, in the Encryptus envelope. */
export const ImportedKycAnswer = encryptusSuccessOf(CustomerAnswer);
