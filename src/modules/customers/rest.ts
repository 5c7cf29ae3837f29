import type { FastifyInstance } from 'fastify';
import { assertSandbox } from '../../domain/environment.js';
import { ValidationError } from '../../domain/errors.js';
import { checkInput, parseInput } from '../../domain/validation.js';
import { replyIdempotently, requestScope, restFieldErrors, withRestPointers } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { presentCreatedCustomer } from './presenters.js';
import {
  CUSTOMER_POINTERS,
  CustomerChangesBody,
  NewCustomerBody,
  NewKycLinkBody,
  SimulateKycBody,
  customerChangesOf,
  namesIn,
  newCustomerOf,
  newKycLinkOf,
} from './rest-bodies.js';

type CustomerParams = { Params: { customer_id: string } };

/** Spec §4.1: parses the spec's bodies, calls the use cases, answers in the spec's shapes. */
export function customerRoutes(app: FastifyInstance, { customers }: Services) {
  app.post('/v0/customers', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      const customer = newCustomerOf(parseInput(NewCustomerBody, request.body));
      return { status: 201, body: presentCreatedCustomer(await withRestPointers(customers.create(scope, customer), CUSTOMER_POINTERS)) };
    }),
  );

  app.get<CustomerParams>('/v0/customers/:customer_id', async (request) =>
    customers.view(await customers.get(requestScope(request), request.params.customer_id)),
  );

  app.put<CustomerParams>('/v0/customers/:customer_id', async (request) => {
    const scope = requestScope(request);
    const id = request.params.customer_id;
    const body = checkInput(CustomerChangesBody, request.body);
    if (body.errors.length) {
      // Names the customer's type does not allow are reported with the body's own problems, in one answer.
      const names = await customers.namesNotAllowedFor(scope, id, namesIn(request.body));
      throw new ValidationError([...body.errors, ...restFieldErrors(names, CUSTOMER_POINTERS)]);
    }
    return customers.view(await withRestPointers(customers.update(scope, id, customerChangesOf(body.data!)), CUSTOMER_POINTERS));
  });

  // Align's "create KYC session": 201 with the customer's kycs and a fresh kyc_flow_link. Idempotency-Key is optional
  // (the spec lists none here); a replay answers the first link, which works until a newer link replaces it.
  app.post<CustomerParams>('/v0/customers/:customer_id/kycs', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      const link = newKycLinkOf(parseInput(NewKycLinkBody, request.body ?? {}));
      const customer = await withRestPointers(customers.createKycLink(scope, request.params.customer_id, link));
      return { status: 201, body: { kycs: customers.view(customer).kycs } };
    }),
  );

  // Sandbox (403 first with a production key): { action: submit_kyc | approve_kyc | reject_kyc } → 200 with the customer.
  app.post<CustomerParams>('/v0/customers/:customer_id/kycs/simulate', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      assertSandbox(scope.actor);
      const { action } = parseInput(SimulateKycBody, request.body);
      const id = request.params.customer_id;
      const customer =
        action === 'submit_kyc'
          ? await customers.submitKyc(scope, id)
          : await customers.decideKyc(scope, id, action === 'approve_kyc' ? 'approved' : 'rejected');
      return { status: 200, body: customers.view(customer) };
    }),
  );
}
