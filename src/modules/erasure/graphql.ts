import { ConflictError, ForbiddenError, NotFoundError } from '../../domain/errors.js';
import { builder } from '../../graphql/builder.js';
import { scopeOf } from '../../graphql/context.js';
import { databaseIdOf } from '../../graphql/types/node.js';
import { payloadOf } from '../../graphql/types/payload.js';
import { CustomerRef } from '../customers/graphql.js';

const RedactCustomerInputRef = builder.inputType('RedactCustomerInput', {
  description: 'The customer whose personal data to erase',
  fields: (t) => ({ customerId: t.id({ required: true, description: 'The customer (global id or databaseId)' }) }),
});

builder.mutationFields((t) => ({
  redactCustomer: t.field({
    keyScope: 'admin',
    type: CustomerRef,
    description:
      "Erases a customer's personal data (needs the admin scope: ForbiddenError insufficient_scope otherwise). Names, email, address, KYC and KYB data, bank account holders and numbers become [redacted] or null everywhere Ramp keeps them; ids, amounts, statuses and the ledger stay, and one customer.redacted event announces it. ConflictError customer_has_transfers_in_flight while a transfer of the customer is pending or processing. A redacted customer is returned as it is.",
    errors: payloadOf('RedactCustomer', 'customer', [NotFoundError, ForbiddenError, ConflictError]),
    args: { input: t.arg({ type: RedactCustomerInputRef, required: true, description: 'Which customer to erase' }) },
    resolve: (_, { input }, ctx) => ctx.services.erasure.redactCustomer(scopeOf(ctx), databaseIdOf(input.customerId, 'Customer')),
  }),
}));
