import type { FastifyInstance } from 'fastify';
import { encryptusSuccess } from '../../platform/http-errors.js';
import { replyIdempotently } from '../../platform/rest.js';
import type { Services } from '../../services.js';

/** Spec §4.1 `POST /auth/importKYC`; answers in the Encryptus envelope, as the spec's source does. */
export function kycImportRoutes(app: FastifyInstance, { customers, kycImport }: Services) {
  app.post('/auth/importKYC', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => ({
      status: 201,
      body: encryptusSuccess(201, 'KYC imported', customers.view(await kycImport.importKyc(scope, request.body))),
    })),
  );
}
