import type { FastifyInstance } from 'fastify';
import type { TransferDirection } from '../../domain/transfer-status.js';
import { parseInput } from '../../domain/validation.js';
import { type RouteContract, contract } from '../../rest/openapi/contract.js';
import { listOf } from '../../rest/openapi/schemas.js';
import { OffsetPageQuery } from '../../platform/reads/pagination.js';
import { pageOf, replyIdempotently, requestScope, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { presentOfframpQuote, presentOfframpTransfer, presentQuote, presentTransfer } from './presenters.js';
import {
  OfframpDepositBody,
  OfframpQuoteAnswer,
  OfframpQuoteBody,
  OfframpTransferAnswer,
  OfframpTransferBody,
  OnrampQuoteAnswer,
  OnrampQuoteBody,
  OnrampTransferAnswer,
  OnrampTransferBody,
  SimulateOfframpTransferBody,
  SimulateOnrampTransferBody,
  SimulateVirtualAccountDepositBody,
} from './rest-bodies.js';

type CustomerParams = { Params: { customer_id: string } };
type QuoteParams = { Params: { customer_id: string; quote_id: string } };
type TransferParams = { Params: { customer_id: string; transfer_id: string } };
type VirtualAccountParams = { Params: { customer_id: string; virtual_account_id: string } };

const base = (direction: TransferDirection) => `/v0/customers/:customer_id/${direction}-transfer`;
const ONRAMP = 'On-ramp';
const OFFRAMP = 'Off-ramp';
const answerOf = (direction: TransferDirection) => (direction === 'onramp' ? OnrampTransferAnswer : OfframpTransferAnswer);
const named = (direction: TransferDirection) => (direction === 'onramp' ? 'Onramp' : 'Offramp');
const STARTS: TransferErrors = ['quote_used', 'quote_expired', 'kyc_not_approved', 'rails_not_connected', 'amount_out_of_range', 'customer_redacted'];
type TransferErrors = NonNullable<RouteContract['errors']>;

/**
 * The partner API's on-ramp and off-ramp routes, plus the sandbox simulate extensions (docs/api/sandbox.md, "Sandbox settlement"): each route
 * parses the spec's body (rest-bodies.ts) and calls its use case, whose field errors point into the body.
 */
export function transferRoutes(app: FastifyInstance, { transfers }: Services) {
  // ——— On-ramp ———
  app.post<CustomerParams>(
    `${base('onramp')}/quote`,
    contract({
      operationId: 'createOnrampQuote',
      scope: 'write',
      summary: 'Quote an on-ramp (fiat → stablecoin)',
      description: 'Exactly one of `source_amount` (what the customer pays) and `destination_amount` (what they receive).',
      tag: ONRAMP,
      idempotencyKey: 'optional',
      body: OnrampQuoteBody,
      example: { source_amount: '100.00', source_currency: 'eur', source_payment_rails: 'sepa', destination_token: 'usdc', destination_network: 'polygon' },
      responses: { 201: { description: 'The quote', body: OnrampQuoteAnswer } },
      withoutRead: ['quote_id'],
      errors: ['amount_out_of_range', 'kyc_not_approved', 'token_not_offered_on_network', 'customer_redacted'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false },
        {
          run: (scope) => withRestPointers(transfers.createOnrampQuote(scope, request.params.customer_id, parseInput(OnrampQuoteBody, request.body))),
          answer: (quote) => ({ status: 201, body: presentQuote(quote, null) }),
        },
      ),
  );

  app.post<QuoteParams>(
    `${base('onramp')}/quote/:quote_id`,
    contract({
      operationId: 'createOnrampTransfer',
      scope: 'write',
      summary: 'Accept an on-ramp quote: the transfer, with where to send the fiat',
      tag: ONRAMP,
      idempotencyKey: 'optional',
      body: OnrampTransferBody,
      example: { destination_address: '0x1111111111111111111111111111111111111111' },
      responses: { 201: { description: 'The pending transfer with its deposit instructions', body: OnrampTransferAnswer } },
      withoutRead: ['id'],
      errors: STARTS,
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false },
        {
          run: (scope) =>
            withRestPointers(
              transfers.createOnrampTransfer(scope, request.params.customer_id, request.params.quote_id, parseInput(OnrampTransferBody, request.body)),
            ),
          answer: ({ transfer, quote }) => ({ status: 201, body: presentTransfer(transfer, quote) }),
        },
      ),
  );

  // ——— Off-ramp ———
  app.post<CustomerParams>(
    `${base('offramp')}/quote`,
    contract({
      operationId: 'createOfframpQuote',
      scope: 'write',
      summary: 'Quote an off-ramp (stablecoin → fiat); with a destination, also the transfer',
      tag: OFFRAMP,
      idempotencyKey: 'required',
      body: OfframpQuoteBody,
      example: { source_amount: '100.00', source_token: 'usdc', source_network: 'polygon', destination_currency: 'eur', destination_payment_rails: 'sepa' },
      responses: { 201: { description: 'The quote, and the transfer when the body named a destination', body: OfframpQuoteAnswer } },
      withoutRead: ['quote_id', 'transfer_id'],
      errors: [...STARTS, 'token_not_offered_on_network'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: true },
        {
          run: (scope) => withRestPointers(transfers.createOfframpQuote(scope, request.params.customer_id, parseInput(OfframpQuoteBody, request.body))),
          answer: ({ quote, transfer, destination }) => ({ status: 201, body: presentOfframpQuote(quote, transfer, destination) }),
        },
      ),
  );

  app.post<QuoteParams>(
    `${base('offramp')}/quote/:quote_id`,
    contract({
      operationId: 'createOfframpTransfer',
      scope: 'write',
      summary: 'Accept an off-ramp quote: the transfer, with where to send the stablecoin',
      tag: OFFRAMP,
      idempotencyKey: 'optional',
      body: OfframpTransferBody,
      example: { destination_external_account_id: '5f0c6a1e-8a5b-4c1d-9f5e-2b7a1c3d4e5f', transfer_purpose: 'salaries' },
      responses: { 201: { description: 'The pending transfer, payout account in full', body: OfframpTransferAnswer } },
      withoutRead: ['id'],
      errors: STARTS,
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false },
        {
          run: (scope) =>
            withRestPointers(
              transfers.createOfframpTransfer(scope, request.params.customer_id, request.params.quote_id, parseInput(OfframpTransferBody, request.body)),
            ),
          answer: ({ transfer, quote, destination }) => ({ status: 201, body: presentOfframpTransfer(transfer, quote, destination) }),
        },
      ),
  );

  app.post<TransferParams>(
    `${base('offramp')}/:transfer_id/complete`,
    contract({
      operationId: 'completeOfframpTransfer',
      scope: 'write',
      summary: 'Report the stablecoin deposit of an off-ramp transfer',
      tag: OFFRAMP,
      idempotencyKey: 'required',
      body: OfframpDepositBody,
      example: { deposit_transaction_hash: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060' },
      description:
        'On a live chain the hash is looked up and must be a successful transaction paying at least the deposit amount of the quoted token to ' +
        "this transfer's deposit address (else 422, the transfer stays pending). A confirmed deposit moves the transfer to processing; an " +
        'unconfirmed one is accepted and the transfer stays pending, showing its confirmations. On a simulated network only the form of the hash is checked.',
      responses: { 200: { description: 'The transfer: processing, or pending until the deposit has its confirmations', body: OfframpTransferAnswer } },
      withoutRead: ['id'],
      errors: [
        'deposit_transaction_hash_used',
        'transfer_transition_not_allowed',
        'transfer_expired',
        'deposit_transaction_not_found',
        'deposit_transaction_failed',
        'deposit_wrong_recipient',
        'deposit_wrong_token',
        'deposit_underpaid',
      ],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: true },
        {
          run: (scope) =>
            withRestPointers(
              transfers.completeOfframpTransfer(scope, request.params.customer_id, request.params.transfer_id, parseInput(OfframpDepositBody, request.body)),
            ),
          answer: ({ transfer, quote }) => ({ status: 200, body: presentTransfer(transfer, quote) }),
        },
      ),
  );

  // ——— Reads, both directions ———
  for (const direction of ['onramp', 'offramp'] as const) {
    const tag = direction === 'onramp' ? ONRAMP : OFFRAMP;
    app.get<TransferParams>(
      `${base(direction)}/:transfer_id`,
      contract({
        operationId: `get${named(direction)}Transfer`,
        scope: 'read',
        summary: `Get an ${direction} transfer`,
        tag,
        responses: { 200: { description: 'The transfer', body: answerOf(direction) } },
      }),
      async (request) => {
        const { transfer, quote } = await transfers.getForCustomer(requestScope(request), request.params.customer_id, direction, request.params.transfer_id);
        return presentTransfer(transfer, quote);
      },
    );

    app.get<CustomerParams>(
      base(direction),
      contract({
        operationId: `list${named(direction)}Transfers`,
        scope: 'read',
        summary: `List a customer's ${direction} transfers, newest first`,
        tag,
        query: OffsetPageQuery,
        responses: { 200: { description: 'A page of transfers', body: listOf(answerOf(direction)) } },
      }),
      async (request) => {
        const page = parseInput(OffsetPageQuery, request.query ?? {});
        const scope = requestScope(request);
        return pageOf(
          page,
          (p) => transfers.listForCustomer(scope, request.params.customer_id, direction, p),
          ({ transfer, quote }) => presentTransfer(transfer, quote),
        );
      },
    );

    // Extension: the partner calls a pending transfer off (pending → canceled; 409 from any other status).
    app.post<TransferParams>(
      `${base(direction)}/:transfer_id/cancel`,
      contract({
        operationId: `cancel${named(direction)}Transfer`,
        scope: 'write',
        summary: `Cancel a pending ${direction} transfer`,
        tag,
        idempotencyKey: 'optional',
        responses: { 200: { description: 'The transfer, canceled', body: answerOf(direction) } },
        withoutRead: ['id'],
        errors: ['transfer_transition_not_allowed'],
      }),
      (request, reply) =>
        replyIdempotently(
          request,
          reply,
          { required: false },
          {
            run: (scope) => transfers.cancel(scope, request.params.transfer_id, { customerId: request.params.customer_id, direction }),
            answer: ({ transfer, quote }) => ({ status: 200, body: presentTransfer(transfer, quote) }),
          },
        ),
    );

    // Sandbox (403 first with a production key): { action: fiat_deposit (on-ramp only) | crypto_deposit (off-ramp only) |
    // complete_transfer | fail_transfer | refund_transfer, transfer_id, reason?, amount? (the deposits only) }
    const onramp = direction === 'onramp';
    const SimulateBody = onramp ? SimulateOnrampTransferBody : SimulateOfframpTransferBody;
    app.post<CustomerParams>(
      `${base(direction)}/simulate`,
      contract({
        operationId: `simulate${named(direction)}Transfer`,
        scope: 'simulate',
        summary: `Sandbox: move an ${direction} transfer (${onramp ? 'fiat_deposit' : 'crypto_deposit'}, complete_transfer, fail_transfer, refund_transfer)`,
        ...(onramp && {
          description:
            'complete_transfer on a live network: the real payout is signed and stored with the settlement and sent right after it commits; the transfer stays processing with its destination_transaction_hash and completes once the payout has the confirmations.',
        }),
        tag,
        idempotencyKey: 'optional',
        sandboxOnly: true,
        body: SimulateBody,
        example: { action: 'complete_transfer', transfer_id: '5f0c6a1e-8a5b-4c1d-9f5e-2b7a1c3d4e5f' },
        responses: { 200: { description: 'The transfer after the step', body: answerOf(direction) } },
        withoutRead: ['id'],
        errors: [
          'transfer_transition_not_allowed',
          'transfer_expired',
          ...(onramp ? (['not_an_onramp_transfer', 'refund_account_missing'] as const) : (['not_an_offramp_transfer'] as const)),
          'amount_out_of_range',
        ],
      }),
      (request, reply) =>
        replyIdempotently(
          request,
          reply,
          { required: false, sandboxOnly: true },
          {
            run: (scope) => withRestPointers(transfers.simulateByAction(scope, request.params.customer_id, direction, parseInput(SimulateBody, request.body))),
            answer: ({ transfer, quote }) => ({ status: 200, body: presentTransfer(transfer, quote) }),
          },
        ),
    );
  }

  // Sandbox: fiat arrives on a virtual account → a funded on-ramp transfer to its destination.
  app.post<VirtualAccountParams>(
    '/v0/customers/:customer_id/virtual-account/:virtual_account_id/simulate',
    contract({
      operationId: 'simulateVirtualAccountDeposit',
      scope: 'simulate',
      summary: 'Sandbox: fiat arrives on a virtual account (a funded on-ramp transfer to its destination)',
      tag: 'Virtual accounts',
      idempotencyKey: 'optional',
      sandboxOnly: true,
      body: SimulateVirtualAccountDepositBody,
      example: { action: 'fiat_deposit', amount: '100.00' },
      responses: { 201: { description: 'The on-ramp transfer the deposit made', body: OnrampTransferAnswer } },
      withoutRead: ['id'],
      errors: [
        'virtual_account_not_active',
        'virtual_account_has_no_destination',
        'amount_out_of_range',
        'kyc_not_approved',
        // An account opened before its token stopped being offered on its network (NETWORK_TOKENS changed).
        'token_not_offered_on_network',
        'customer_redacted',
      ],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false, sandboxOnly: true },
        {
          run: (scope) => {
            const deposit = parseInput(SimulateVirtualAccountDepositBody, request.body);
            return withRestPointers(transfers.simulateVirtualAccountDeposit(scope, request.params.virtual_account_id, deposit, request.params.customer_id));
          },
          answer: ({ transfer, quote }) => ({ status: 201, body: presentTransfer(transfer, quote) }),
        },
      ),
  );
}
