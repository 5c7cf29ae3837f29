import { ConflictError, ForbiddenError, UnprocessableError, ValidationError } from '../../domain/errors.js';
import { builder } from '../../graphql/builder.js';
import { creatingMutation } from '../../graphql/types/idempotency.js';
import { idempotencyKeyField, payloadOf } from '../../graphql/types/payload.js';
import { CustomerRef } from '../customers/graphql.js';

const ImportKycInputRef = builder.inputType('ImportKycInput', {
  description: "A KYC provider's verification to import (REST: POST /auth/importKYC)",
  fields: (t) => ({
    providerSharedToken: t.string({
      required: true,
      description: "The KYC provider's share token (sandbox: approve_<applicant>, reject_<applicant> or review_<applicant>); accepted once",
    }),
    idempotencyKey: idempotencyKeyField(t),
  }),
});

builder.mutationFields((t) => ({
  importKyc: t.field({
    keyScope: 'write',
    type: CustomerRef,
    description:
      'Imports a verification an external KYC provider already did (REST: POST /auth/importKYC): the individual customer with the ' +
      "applicant's email is created or updated and its KYC moved to the provider's result. ConflictError kyc_token_already_used for a token " +
      'imported before, kyc_transition_not_allowed (e.g. rejecting an approved customer) or kyc_import_customer_is_corporate; ' +
      'ForbiddenError kyc_provider_not_configured in production.',
    errors: payloadOf('ImportKyc', 'customer', [ValidationError, ConflictError, UnprocessableError, ForbiddenError]),
    args: { input: t.arg({ type: ImportKycInputRef, required: true, description: 'What to do, as one input object (ValidationError paths point into it)' }) },
    resolve: creatingMutation({
      run: (request, scope, { services }) => services.kycImport.importKyc(scope, request),
      load: (id, scope, { services }) => services.customers.get(scope, id),
    }),
  }),
}));
