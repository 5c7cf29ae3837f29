import type { FastifyInstance } from 'fastify';
import { encryptusSuccess } from '../../platform/http-errors.js';
import { parseInput } from '../../domain/validation.js';
import { replyIdempotently, withRestPointers } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { IMPORT_KYC_POINTERS, ImportKycBody } from './inputs.js';

/** Spec §4.1 `POST /auth/importKYC`; answers in the Encryptus envelope, as the spec's source does. */
export function kycImportRoutes(app: FastifyInstance, { customers, kycImport }: Services) {
  app.post('/auth/importKYC', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      const customer = await withRestPointers(kycImport.importKyc(scope, parseInput(ImportKycBody, request.body)), IMPORT_KYC_POINTERS);
      return { status: 201, body: encryptusSuccess(201, 'KYC imported', customers.view(customer)) };
    }),
  );
}
