import type { FastifyInstance } from 'fastify';
import { ConflictError, ValidationError } from '../../domain/errors.js';
import { checkInput, parseInput } from '../../domain/validation.js';
import { withProblemExtensions } from '../../rest/http-errors.js';
import { contract } from '../../rest/openapi/contract.js';
import { listOf } from '../../rest/openapi/schemas.js';
import { pageOf, replyIdempotently, requestScope, restFieldErrors, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { presentCreatedCustomer } from './presenters.js';
import {
  CUSTOMER_POINTERS,
  CreatedCustomerAnswer,
  CustomerAnswer,
  CustomerChangesBody,
  CustomerListQuery,
  KycsAnswer,
  NewCustomerBody,
  NewKycLinkBody,
  SimulateKycBody,
  customerChangesOf,
  namesIn,
  newCustomerOf,
  newKycLinkOf,
} from './rest-bodies.js';
import { z } from 'zod';

type CustomerParams = { Params: { customer_id: string } };
const tag = 'Customers';

/** The partner API's customer routes: parses their bodies, calls the use cases, answers in the spec's shapes. */
export function customerRoutes(app: FastifyInstance, { customers }: Services) {
  app.post(
    '/v0/customers',
    contract({
      operationId: 'createCustomer',
      scope: 'write',
      summary: 'Create a customer',
      description: 'A duplicate email is 409 `customer_email_taken`, naming the existing customer in `customer_id`.',
      tag,
      idempotencyKey: 'optional',
      body: NewCustomerBody,
      example: { email: 'ada@example.com', type: 'individual', first_name: 'Ada', last_name: 'Lovelace' },
      responses: { 201: { description: 'The new customer', body: CreatedCustomerAnswer } },
      withoutRead: ['customer_id'],
      errors: ['customer_email_taken'],
    }),
    async (request, reply) => {
      let email = '';
      try {
        return await replyIdempotently(
          request,
          reply,
          { required: false },
          {
            run: (scope) => {
              const customer = newCustomerOf(parseInput(NewCustomerBody, request.body));
              email = customer.email;
              return withRestPointers(customers.create(scope, customer), CUSTOMER_POINTERS);
            },
            answer: (created) => ({ status: 201, body: presentCreatedCustomer(created) }),
          },
        );
      } catch (error) {
        // The integrator's next step is the customer that has the email: name it (RFC 9457 extension member).
        if (!(error instanceof ConflictError) || error.code !== 'customer_email_taken' || !email) throw error;
        const existing = await customers.findByEmail(requestScope(request), email);
        throw existing ? withProblemExtensions(error, { customer_id: existing.id }) : error;
      }
    },
  );

  app.get(
    '/v0/customers',
    contract({
      operationId: 'listCustomers',
      scope: 'read',
      summary: 'List customers',
      description: 'Oldest first, `limit` at a time after the first `skip`; `email` finds the customer with that email.',
      tag,
      query: CustomerListQuery,
      responses: { 200: { description: 'A page of customers', body: listOf(CustomerAnswer) } },
    }),
    async (request) => {
      const { email, ...page } = parseInput(CustomerListQuery, request.query ?? {});
      const scope = requestScope(request);
      return pageOf(page, (p) => customers.listByOffset(scope, { email }, p), customers.view);
    },
  );

  app.get<CustomerParams>(
    '/v0/customers/:customer_id',
    contract({
      operationId: 'getCustomer',
      scope: 'read',
      summary: 'Get a customer',
      tag,
      responses: { 200: { description: 'The customer', body: CustomerAnswer } },
    }),
    async (request) => customers.view(await customers.get(requestScope(request), request.params.customer_id)),
  );

  app.put<CustomerParams>(
    '/v0/customers/:customer_id',
    contract({
      operationId: 'updateCustomer',
      scope: 'write',
      summary: 'Update a customer (KYC data, address, names of its type)',
      tag,
      body: CustomerChangesBody,
      example: { address: { country: 'DE', city: 'Berlin', street_line_1: 'Unter den Linden 1', postal_code: '10117' } },
      responses: { 200: { description: 'The customer as updated', body: CustomerAnswer } },
      withoutRead: ['customer_id'],
      errors: [
        'customer_email_taken',
        'kyc_token_already_used',
        'kyc_import_customer_is_corporate',
        'kyc_transition_not_allowed',
        'kyc_provider_not_configured',
        'customer_redacted',
      ],
    }),
    async (request) => {
      const scope = requestScope(request);
      const id = request.params.customer_id;
      const body = checkInput(CustomerChangesBody, request.body);
      if (body.errors.length) {
        // Names the customer's type does not allow are reported with the body's own problems, in one answer.
        const names = await customers.namesNotAllowedFor(scope, id, namesIn(request.body));
        throw new ValidationError([...body.errors, ...restFieldErrors(names, CUSTOMER_POINTERS)]);
      }
      return customers.view(await withRestPointers(customers.update(scope, id, customerChangesOf(body.data!)), CUSTOMER_POINTERS));
    },
  );

  // Align's "create KYC session": 201 with the customer's kycs and a fresh kyc_flow_link. Idempotency-Key is optional
  // (the spec lists none here); a replay answers the first link, which works until a newer link replaces it.
  app.post<CustomerParams>(
    '/v0/customers/:customer_id/kycs',
    contract({
      operationId: 'createKycLink',
      scope: 'write',
      summary: 'Create a KYC session (a fresh hosted verification link)',
      tag,
      idempotencyKey: 'optional',
      body: NewKycLinkBody,
      bodyOptional: true,
      responses: { 201: { description: "The customer's KYC with a new `kyc_flow_link`", body: z.strictObject({ kycs: KycsAnswer }) } },
      // A KYC has no id of its own, and its status and link are the customer's.
      withoutRead: [],
      errors: ['kyc_provider_not_configured', 'customer_redacted'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false },
        {
          run: (scope) =>
            withRestPointers(customers.createKycLink(scope, request.params.customer_id, newKycLinkOf(parseInput(NewKycLinkBody, request.body ?? {})))),
          answer: (customer) => ({ status: 201, body: { kycs: customers.view(customer).kycs } }),
        },
      ),
  );

  // Sandbox (403 first with a production key): { action: submit_kyc | approve_kyc | reject_kyc } → 200 with the customer.
  app.post<CustomerParams>(
    '/v0/customers/:customer_id/kycs/simulate',
    contract({
      operationId: 'simulateKyc',
      scope: 'simulate',
      summary: "Sandbox: move a customer's KYC (submit, approve, reject)",
      tag,
      idempotencyKey: 'optional',
      sandboxOnly: true,
      body: SimulateKycBody,
      example: { action: 'approve_kyc' },
      responses: { 200: { description: 'The customer', body: CustomerAnswer } },
      withoutRead: ['customer_id'],
      errors: ['kyc_transition_not_allowed', 'customer_redacted'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false, sandboxOnly: true },
        {
          run: (scope) => {
            const { action } = parseInput(SimulateKycBody, request.body);
            const id = request.params.customer_id;
            return action === 'submit_kyc'
              ? customers.submitKyc(scope, id)
              : customers.decideKyc(scope, id, action === 'approve_kyc' ? 'approved' : 'rejected');
          },
          answer: (customer) => ({ status: 200, body: customers.view(customer) }),
        },
      ),
  );
}
