import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { contract } from '../../rest/openapi/contract.js';
import { replyIdempotently } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { CustomerAnswer } from '../customers/rest-bodies.js';

type CustomerParams = { Params: { customer_id: string } };

/** A Ramp extension of the partner API: erasure of a customer's personal data (docs/api/security.md). */
export function erasureRoutes(app: FastifyInstance, { erasure, customers }: Services) {
  app.post<CustomerParams>(
    '/v0/customers/:customer_id/redact',
    contract({
      operationId: 'redactCustomer',
      scope: 'admin',
      summary: "Erase a customer's personal data (its transfers and ledger stay)",
      description:
        'Needs an API key with the `admin` scope. Names, email, address, KYC and KYB data, bank account holders and numbers become `[redacted]` or null everywhere Ramp keeps them (events, delivery logs and stored responses included); ids, amounts, statuses and the ledger stay. One `customer.redacted` event announces it. Refused with 409 `customer_has_transfers_in_flight` while a transfer of the customer is pending or processing. Redacting a redacted customer answers it as it is.',
      tag: 'Customers',
      idempotencyKey: 'optional',
      body: z.strictObject({}),
      bodyOptional: true,
      responses: { 200: { description: 'The customer as it reads now, with `redacted_at`', body: CustomerAnswer } },
      withoutRead: ['customer_id'],
      errors: ['customer_has_transfers_in_flight'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false },
        {
          run: (scope) => erasure.redactCustomer(scope, request.params.customer_id),
          answer: (customer) => ({ status: 200, body: customers.view(customer) }),
        },
      ),
  );
}
