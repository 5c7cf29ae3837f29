import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validation.js';
import { OffsetPageQuery } from '../../platform/pagination.js';
import { replyIdempotently, requestScope, withRestPointers } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { presentBankAccount } from './presenters.js';
import { BANK_ACCOUNT_POINTERS, BankAccountBody, newBankAccountOf } from './rest-bodies.js';

type CustomerParams = { Params: { customer_id: string } };
type AccountParams = { Params: { customer_id: string; external_account_id: string } };

/** Spec §4.2, plus Align's list and get-one: parses the spec's body, calls the use cases. Numbers are shown in full only in the 201. */
export function bankAccountRoutes(app: FastifyInstance, { bankAccounts }: Services) {
  app.post<CustomerParams>('/v0/customers/:customer_id/external-accounts', (request, reply) =>
    replyIdempotently(request, reply, { required: true }, async (scope) => {
      const account = newBankAccountOf(parseInput(BankAccountBody, request.body));
      const created = await withRestPointers(bankAccounts.create(scope, request.params.customer_id, account), BANK_ACCOUNT_POINTERS);
      return { status: 201, body: presentBankAccount(created, { masked: false }) };
    }),
  );

  app.get<CustomerParams>('/v0/customers/:customer_id/external-accounts', async (request) => {
    const scope = requestScope(request);
    const accounts = await bankAccounts.listForCustomer(scope, request.params.customer_id, parseInput(OffsetPageQuery, request.query ?? {}));
    return { items: accounts.map((account) => presentBankAccount(account, { masked: true })) };
  });

  app.get<AccountParams>('/v0/customers/:customer_id/external-accounts/:external_account_id', async (request) =>
    presentBankAccount(await bankAccounts.getForCustomer(requestScope(request), request.params.customer_id, request.params.external_account_id), {
      masked: true,
    }),
  );
}
