import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validation.js';
import { encryptusSuccess } from '../../platform/http-errors.js';
import { replyIdempotently, withRestPointers } from '../../platform/rest.js';
import type { Scope } from '../../platform/scope.js';
import type { Services } from '../../services.js';
import type { BusinessProfileView } from './presenters.js';
import { AddressBody, BasicDetailsBody, KYB_POINTERS, LegalRepresentativeBody, addressOf, basicDetailsOf, legalRepresentativeOf } from './rest-bodies.js';

/**
 * Spec §4.8 business KYB import; 201 with the Encryptus envelope carrying the profile so far. Each
 * route parses the spec's body (rest-bodies.ts) and calls the section's use case.
 */
export function kybRoutes(app: FastifyInstance, { kyb }: Services) {
  const sections: Array<[string, string, (scope: Scope, body: unknown) => Promise<BusinessProfileView>]> = [
    ['basic-details', 'Business basic details saved', (scope, body) => kyb.submitBasicDetails(scope, basicDetailsOf(parseInput(BasicDetailsBody, body)))],
    ['address', 'Business address saved', (scope, body) => kyb.submitAddress(scope, addressOf(parseInput(AddressBody, body)))],
    [
      'legalRepresentation',
      'Legal representative saved',
      (scope, body) => kyb.submitLegalRepresentative(scope, legalRepresentativeOf(parseInput(LegalRepresentativeBody, body))),
    ],
  ];
  for (const [path, message, submit] of sections) {
    app.post(`/v1/partners/kyc/business/${path}`, (request, reply) =>
      replyIdempotently(request, reply, { required: false }, async (scope) => ({
        status: 201,
        body: encryptusSuccess(201, message, await withRestPointers(submit(scope, request.body), KYB_POINTERS)),
      })),
    );
  }
}
