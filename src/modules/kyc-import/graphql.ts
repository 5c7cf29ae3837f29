import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { MUTATION_ERRORS, withInputPaths } from '../../graphql/errors.js';
import { idempotentMutation } from '../../graphql/idempotency.js';
import { CustomerRef } from '../customers/graphql.js';

builder.mutationFields((t) => ({
  importKyc: t.field({
    type: CustomerRef,
    description:
      'Imports a verification an external KYC provider already did (REST: POST /auth/importKYC). Each share token is accepted once; ' +
      "the individual customer with the applicant's email is created or updated and its KYC moved to the provider's result.",
    errors: { types: MUTATION_ERRORS },
    args: { providerSharedToken: t.arg.string({ required: true }), idempotencyKey: t.arg.string() },
    resolve: (_, args, ctx) =>
      idempotentMutation(
        ctx,
        'importKyc',
        args,
        (em) => withInputPaths(ctx.services.kycImport.importKyc({ ...scopeOf(ctx), em }, { providerSharedToken: args.providerSharedToken })),
        (id) => ctx.services.customers.get(scopeOf(ctx), id),
      ),
  }),
}));
