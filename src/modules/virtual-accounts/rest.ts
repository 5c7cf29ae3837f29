import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validation.js';
import { contract } from '../../rest/openapi/contract.js';
import { listOf } from '../../rest/openapi/schemas.js';
import { OffsetPageQuery } from '../../platform/reads/pagination.js';
import { pageOf, replyIdempotently, requestScope, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { presentCreatedVirtualAccount, presentVirtualAccount } from './presenters.js';
import { NewVirtualAccountBody, PendingVirtualAccountAnswer, SimulationBody, VirtualAccountAnswer, pendingIssuanceOf } from './rest-bodies.js';

type CustomerParams = { Params: { customer_id: string } };
type AccountParams = { Params: { customer_id: string; virtual_account_id: string } };
const tag = 'Virtual accounts';

/**
 * The partner API's virtual-account routes, plus Align's get-one and list: parses the spec's bodies, calls the use
 * cases, answers in the spec's shapes. Domain pointers are the body's snake-cased (no renames).
 */
export function virtualAccountRoutes(app: FastifyInstance, { virtualAccounts }: Services) {
  app.post<CustomerParams>(
    '/v0/customers/:customer_id/virtual-account',
    contract({
      operationId: 'createVirtualAccount',
      scope: 'write',
      summary: 'Open a virtual account (fiat in, stablecoin out to a fixed address)',
      tag,
      idempotencyKey: 'optional',
      body: NewVirtualAccountBody,
      example: {
        source_currency: 'eur',
        destination_token: 'usdc',
        destination_network: 'polygon',
        destination_address: '0x1111111111111111111111111111111111111111',
      },
      responses: {
        201: { description: 'Issued at once (USD over ACH/wire, EUR over SEPA): the account with its deposit instructions', body: VirtualAccountAnswer },
        202: { description: 'Pending the banking partner (AED, USD over SWIFT)', body: PendingVirtualAccountAnswer },
      },
      withoutRead: ['id', 'virtual_account_id'],
      errors: ['kyc_not_approved', 'token_not_offered_on_network', 'virtual_account_exists', 'rails_not_connected', 'customer_redacted'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false },
        {
          run: (scope) => withRestPointers(virtualAccounts.create(scope, request.params.customer_id, parseInput(NewVirtualAccountBody, request.body))),
          answer: presentCreatedVirtualAccount,
        },
      ),
  );

  // Sandbox only: 403 with a production key, before the body is read (as the use case would).
  app.post<CustomerParams>(
    '/v0/customers/:customer_id/virtual-account/simulate',
    contract({
      operationId: 'simulateVirtualAccountIssuance',
      scope: 'simulate',
      summary: 'Sandbox: the banking partner issues a pending virtual account',
      tag,
      idempotencyKey: 'optional',
      sandboxOnly: true,
      body: SimulationBody,
      example: { action: 'issue_pending_virtual_account', virtual_account_id: '5f0c6a1e-8a5b-4c1d-9f5e-2b7a1c3d4e5f' },
      responses: { 201: { description: 'The account, now active', body: VirtualAccountAnswer } },
      withoutRead: ['id', 'virtual_account_id'],
      errors: ['virtual_account_already_active'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false, sandboxOnly: true },
        {
          run: (scope) => {
            return withRestPointers(
              virtualAccounts.issuePending(scope, request.params.customer_id, pendingIssuanceOf(parseInput(SimulationBody, request.body))),
            );
          },
          answer: (account) => ({ status: 201, body: presentVirtualAccount(account) }),
        },
      ),
  );

  app.get<CustomerParams>(
    '/v0/customers/:customer_id/virtual-account',
    contract({
      operationId: 'listVirtualAccounts',
      scope: 'read',
      summary: "List a customer's virtual accounts",
      tag,
      query: OffsetPageQuery,
      responses: { 200: { description: 'A page of virtual accounts', body: listOf(VirtualAccountAnswer) } },
    }),
    async (request) => {
      const page = parseInput(OffsetPageQuery, request.query ?? {});
      const scope = requestScope(request);
      return pageOf(page, (p) => virtualAccounts.listForCustomer(scope, request.params.customer_id, p), presentVirtualAccount);
    },
  );

  app.get<AccountParams>(
    '/v0/customers/:customer_id/virtual-account/:virtual_account_id',
    contract({
      operationId: 'getVirtualAccount',
      scope: 'read',
      summary: 'Get a virtual account',
      tag,
      responses: { 200: { description: 'The virtual account', body: VirtualAccountAnswer } },
    }),
    async (request) =>
      presentVirtualAccount(await virtualAccounts.getForCustomer(requestScope(request), request.params.customer_id, request.params.virtual_account_id)),
  );
}
