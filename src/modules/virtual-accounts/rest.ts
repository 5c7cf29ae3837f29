import type { FastifyInstance } from 'fastify';
import { replyIdempotently, requestScope } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { presentCreatedVirtualAccount, presentVirtualAccount } from './presenters.js';

type CustomerParams = { Params: { customer_id: string } };
type AccountParams = { Params: { customer_id: string; virtual_account_id: string } };

/** Spec §4.3 and DESIGN §6, plus Align's get-one and list. */
export function virtualAccountRoutes(app: FastifyInstance, { virtualAccounts }: Services) {
  app.post<CustomerParams>('/v0/customers/:customer_id/virtual-account', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) =>
      presentCreatedVirtualAccount(await virtualAccounts.create(scope, request.params.customer_id, request.body)),
    ),
  );

  // Sandbox only: 403 with a production key.
  app.post<CustomerParams>('/v0/customers/:customer_id/virtual-account/simulate', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => ({
      status: 201,
      body: presentVirtualAccount(await virtualAccounts.simulate(scope, request.params.customer_id, request.body)),
    })),
  );

  app.get<CustomerParams>('/v0/customers/:customer_id/virtual-account', async (request) => {
    const accounts = await virtualAccounts.listForCustomer(requestScope(request), request.params.customer_id, request.query);
    return { items: accounts.map(presentVirtualAccount) };
  });

  app.get<AccountParams>('/v0/customers/:customer_id/virtual-account/:virtual_account_id', async (request) =>
    presentVirtualAccount(
      await virtualAccounts.getForCustomer(requestScope(request), request.params.customer_id, request.params.virtual_account_id),
    ),
  );
}
