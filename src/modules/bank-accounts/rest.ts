import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validation.js';
import { contract } from '../../rest/openapi/contract.js';
import { listOf } from '../../rest/openapi/schemas.js';
import { OffsetPageQuery } from '../../platform/reads/pagination.js';
import { pageOf, replyIdempotently, requestScope, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { presentBankAccount } from './presenters.js';
import { BankAccountBody, ExternalAccountAnswer } from './rest-bodies.js';

type CustomerParams = { Params: { customer_id: string } };
type AccountParams = { Params: { customer_id: string; external_account_id: string } };
const tag = 'External accounts';

/** The partner API's external-account routes, plus Align's list and get-one: parses the spec's body, calls the use cases. Numbers are shown in full only in the 201. */
export function bankAccountRoutes(app: FastifyInstance, { bankAccounts }: Services) {
  app.post<CustomerParams>(
    '/v0/customers/:customer_id/external-accounts',
    contract({
      operationId: 'createExternalAccount',
      scope: 'write',
      summary: "Register a customer's bank account (payout destination)",
      tag,
      idempotencyKey: 'required',
      body: BankAccountBody,
      example: {
        bank_name: 'Commerzbank',
        account_holder_type: 'individual',
        account_holder_first_name: 'Ada',
        account_holder_last_name: 'Lovelace',
        account_holder_address: { country: 'DE', city: 'Berlin', street_line_1: 'Unter den Linden 1', postal_code: '10117' },
        account_type: 'iban',
        iban: { bic: 'COBADEFFXXX', iban_number: 'DE89370400440532013000' },
      },
      responses: { 201: { description: 'The account, numbers in full (the only answer that shows them)', body: ExternalAccountAnswer } },
      withoutRead: ['id', 'external_account_id'],
      errors: ['external_account_exists', 'customer_redacted'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: true },
        {
          run: (scope) => withRestPointers(bankAccounts.create(scope, request.params.customer_id, parseInput(BankAccountBody, request.body))),
          answer: (created) => ({ status: 201, body: presentBankAccount(created.account, created.details) }),
        },
      ),
  );

  app.get<CustomerParams>(
    '/v0/customers/:customer_id/external-accounts',
    contract({
      operationId: 'listExternalAccounts',
      scope: 'read',
      summary: "List a customer's bank accounts (numbers masked)",
      tag,
      query: OffsetPageQuery,
      responses: { 200: { description: 'A page of accounts', body: listOf(ExternalAccountAnswer) } },
    }),
    async (request) => {
      const scope = requestScope(request);
      const page = parseInput(OffsetPageQuery, request.query ?? {});
      return pageOf(
        page,
        (p) => bankAccounts.listForCustomer(scope, request.params.customer_id, p),
        (account) => presentBankAccount(account),
      );
    },
  );

  app.get<AccountParams>(
    '/v0/customers/:customer_id/external-accounts/:external_account_id',
    contract({
      operationId: 'getExternalAccount',
      scope: 'read',
      summary: 'Get a bank account (numbers masked)',
      tag,
      responses: { 200: { description: 'The account', body: ExternalAccountAnswer } },
    }),
    async (request) =>
      presentBankAccount(await bankAccounts.getForCustomer(requestScope(request), request.params.customer_id, request.params.external_account_id)),
  );
}
