import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { parseInput } from '../../domain/validation.js';
import { encryptusSuccess } from '../../rest/http-errors.js';
import { contract } from '../../rest/openapi/contract.js';
import { encryptusSuccessOf, ENVELOPE_FIELDS } from '../../rest/openapi/schemas.js';
import { replyIdempotently, withRestPointers } from '../../rest/routes.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import type { Services } from '../../services.js';
import type { BusinessProfileView } from './presenters.js';
import {
  AddressBody,
  BasicDetailsBody,
  BusinessProfileAnswer,
  KYB_POINTERS,
  LegalRepresentativeBody,
  addressOf,
  basicDetailsOf,
  legalRepresentativeOf,
} from './rest-bodies.js';

interface Section {
  path: string;
  operationId: string;
  message: string;
  body: z.ZodType;
  submit: (scope: Scope, body: unknown) => Promise<BusinessProfileView>;
}

/**
 * The partner API's business KYB import; 201 with the Encryptus envelope carrying the profile so far. Each
 * route parses the spec's body (rest-bodies.ts) and calls the section's use case.
 */
export function kybRoutes(app: FastifyInstance, { kyb }: Services) {
  const sections: Section[] = [
    {
      path: 'basic-details',
      operationId: 'submitBusinessBasicDetails',
      message: 'Business basic details saved',
      body: BasicDetailsBody,
      submit: (scope, body) => kyb.submitBasicDetails(scope, basicDetailsOf(parseInput(BasicDetailsBody, body))),
    },
    {
      path: 'address',
      operationId: 'submitBusinessAddress',
      message: 'Business address saved',
      body: AddressBody,
      submit: (scope, body) => kyb.submitAddress(scope, addressOf(parseInput(AddressBody, body))),
    },
    {
      path: 'legalRepresentation',
      operationId: 'submitBusinessLegalRepresentative',
      message: 'Legal representative saved',
      body: LegalRepresentativeBody,
      submit: (scope, body) => kyb.submitLegalRepresentative(scope, legalRepresentativeOf(parseInput(LegalRepresentativeBody, body))),
    },
  ];
  for (const { path, operationId, message, body, submit } of sections) {
    app.post(
      `/v1/partners/kyc/business/${path}`,
      contract({
        operationId,
        scope: 'write',
        summary: `KYB: ${message.toLowerCase().replace(/ saved$/, '')}`,
        tag: 'Business KYB (/v1)',
        idempotencyKey: 'optional',
        body,
        responses: { 201: { description: `${message}: the business profile so far`, body: encryptusSuccessOf(BusinessProfileAnswer) } },
        withoutRead: [...ENVELOPE_FIELDS, 'data.customerId'],
        errors: ['kyc_transition_not_allowed'],
      }),
      (request, reply) =>
        replyIdempotently(
          request,
          reply,
          { required: false },
          {
            run: (scope) => withRestPointers(submit(scope, request.body), KYB_POINTERS),
            answer: (profile) => ({ status: 201, body: encryptusSuccess(201, message, profile) }),
          },
        ),
    );
  }
}
