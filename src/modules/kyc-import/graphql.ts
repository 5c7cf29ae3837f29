import { ValidationError } from '../../domain/errors.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { MUTATION_ERRORS } from '../../graphql/errors.js';
import { idempotentMutation } from '../../graphql/idempotency.js';
import { CustomerRef } from '../customers/graphql.js';

/** REST names the field `providersharedtoken`; GraphQL clients should see their own argument's name. */
async function withGraphQLPointers<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const fieldErrors = error.fieldErrors.map((e) => ({ ...e, pointer: e.pointer.replace(/^\/providersharedtoken/, '/providerSharedToken') }));
    throw new ValidationError(fieldErrors, error.message, error.code);
  }
}

builder.mutationFields((t) => ({
  importKyc: t.field({
    type: CustomerRef,
    description:
      'Imports a verification an external KYC provider already did (REST: POST /auth/importKYC). Each share token is accepted once; ' +
      "the individual customer with the applicant's email is created or updated and its KYC moved to the provider's result.",
    errors: { types: MUTATION_ERRORS },
    args: { providerSharedToken: t.arg.string({ required: true }), idempotencyKey: t.arg.string() },
    resolve: (_, args, ctx) =>
      withGraphQLPointers(
        idempotentMutation(
          ctx,
          'importKyc',
          args,
          (em) => ctx.services.kycImport.importKyc({ ...scopeOf(ctx), em }, { providersharedtoken: args.providerSharedToken }),
          (id) => ctx.services.customers.get(scopeOf(ctx), id),
        ),
      ),
  }),
}));
