import type { FastifyInstance } from 'fastify';
import { replyIdempotently, requestScope } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { presentCreatedCustomer } from './presenters.js';

type CustomerParams = { Params: { customer_id: string } };

/** Spec §4.1. */
export function customerRoutes(app: FastifyInstance, { customers }: Services) {
  app.post('/v0/customers', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => ({
      status: 201,
      body: presentCreatedCustomer(await customers.create(scope, request.body)),
    })),
  );

  app.get<CustomerParams>('/v0/customers/:customer_id', async (request) =>
    customers.view(await customers.get(requestScope(request), request.params.customer_id)),
  );

  app.put<CustomerParams>('/v0/customers/:customer_id', async (request) =>
    customers.view(await customers.update(requestScope(request), request.params.customer_id, request.body)),
  );
}
