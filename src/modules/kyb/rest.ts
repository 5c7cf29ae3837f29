import type { FastifyInstance } from 'fastify';
import { encryptusSuccess } from '../../platform/http-errors.js';
import { replyIdempotently } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import type { BusinessProfileView } from './presenters.js';

/** Spec §4.8 business KYB import; 201 with the Encryptus envelope carrying the profile so far. */
export function kybRoutes(app: FastifyInstance, { kyb }: Services) {
  const sections: Array<[string, string, typeof kyb.submitBasicDetails]> = [
    ['basic-details', 'Business basic details saved', kyb.submitBasicDetails],
    ['address', 'Business address saved', kyb.submitAddress],
    ['legalRepresentation', 'Legal representative saved', kyb.submitLegalRepresentative],
  ];
  for (const [path, message, submit] of sections) {
    app.post(`/v1/partners/kyc/business/${path}`, (request, reply) =>
      replyIdempotently(request, reply, { required: false }, async (scope) => ({
        status: 201,
        body: encryptusSuccess(201, message, (await submit(scope, request.body)) satisfies BusinessProfileView),
      })),
    );
  }
}
