import type { FastifyInstance } from 'fastify';
import { encryptusSuccess } from '../../rest/http-errors.js';
import { parseInput } from '../../domain/validation.js';
import { ENVELOPE_FIELDS } from '../../rest/openapi/schemas.js';
import { contract } from '../../rest/openapi/contract.js';
import { replyIdempotently, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { IMPORT_KYC_POINTERS, ImportKycBody } from './inputs.js';
import { ImportedKycAnswer } from './rest-bodies.js';
import { SANDBOX_EXAMPLE_TOKEN } from './sandbox-provider.js';

/** `POST /auth/importKYC`; answers in the Encryptus envelope, as the spec's source does. */
export function kycImportRoutes(app: FastifyInstance, { customers, kycImport }: Services) {
  app.post(
    '/auth/importKYC',
    contract({
      operationId: 'importKyc',
      scope: 'write',
      summary: "Import a KYC provider's verification by share token",
      tag: 'Customers',
      idempotencyKey: 'optional',
      body: ImportKycBody,
      example: { providersharedtoken: SANDBOX_EXAMPLE_TOKEN },
      responses: { 201: { description: 'The customer the verification made or updated', body: ImportedKycAnswer } },
      withoutRead: [...ENVELOPE_FIELDS, 'data.customer_id'],
      errors: ['kyc_token_already_used', 'kyc_import_customer_is_corporate', 'kyc_provider_not_configured', 'kyc_transition_not_allowed'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false },
        {
          run: (scope) => withRestPointers(kycImport.importKyc(scope, parseInput(ImportKycBody, request.body)), IMPORT_KYC_POINTERS),
          answer: (customer) => ({ status: 201, body: encryptusSuccess(201, 'KYC imported', customers.view(customer)) }),
        },
      ),
  );
}
