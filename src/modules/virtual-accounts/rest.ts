import type { FastifyInstance } from 'fastify';
import { assertSandbox } from '../../domain/environment.js';
import { parseInput } from '../../domain/validation.js';
import { OffsetPageQuery } from '../../platform/pagination.js';
import { replyIdempotently, requestScope, withRestPointers } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { presentCreatedVirtualAccount, presentVirtualAccount } from './presenters.js';
import { NewVirtualAccountBody, SimulationBody, newVirtualAccountOf, pendingIssuanceOf } from './rest-bodies.js';

type CustomerParams = { Params: { customer_id: string } };
type AccountParams = { Params: { customer_id: string; virtual_account_id: string } };

/**
 * Spec §4.3 and DESIGN §6, plus Align's get-one and list: parses the spec's bodies, calls the use
 * cases, answers in the spec's shapes. Domain pointers are the body's snake-cased (no renames).
 */
export function virtualAccountRoutes(app: FastifyInstance, { virtualAccounts }: Services) {
  app.post<CustomerParams>('/v0/customers/:customer_id/virtual-account', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      const account = newVirtualAccountOf(parseInput(NewVirtualAccountBody, request.body));
      return presentCreatedVirtualAccount(await withRestPointers(virtualAccounts.create(scope, request.params.customer_id, account)));
    }),
  );

  // Sandbox only: 403 with a production key, before the body is read (as the use case would).
  app.post<CustomerParams>('/v0/customers/:customer_id/virtual-account/simulate', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      assertSandbox(scope.actor);
      const issuance = pendingIssuanceOf(parseInput(SimulationBody, request.body));
      return { status: 201, body: presentVirtualAccount(await withRestPointers(virtualAccounts.issuePending(scope, request.params.customer_id, issuance))) };
    }),
  );

  app.get<CustomerParams>('/v0/customers/:customer_id/virtual-account', async (request) => {
    const page = parseInput(OffsetPageQuery, request.query);
    const accounts = await virtualAccounts.listForCustomer(requestScope(request), request.params.customer_id, page);
    return { items: accounts.map(presentVirtualAccount) };
  });

  app.get<AccountParams>('/v0/customers/:customer_id/virtual-account/:virtual_account_id', async (request) =>
    presentVirtualAccount(await virtualAccounts.getForCustomer(requestScope(request), request.params.customer_id, request.params.virtual_account_id)),
  );
}
