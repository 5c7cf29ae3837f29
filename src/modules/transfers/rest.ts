import type { FastifyInstance } from 'fastify';
import { assertSandbox } from '../../domain/environment.js';
import type { TransferDirection } from '../../domain/transfer-status.js';
import { parseInput } from '../../domain/validation.js';
import { OffsetPageQuery } from '../../platform/pagination.js';
import { replyIdempotently, requestScope, withRestPointers } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { presentOfframpQuote, presentOfframpTransfer, presentQuote, presentTransfer } from './presenters.js';
import {
  OfframpDepositBody,
  OfframpQuoteBody,
  OfframpTransferBody,
  OnrampQuoteBody,
  OnrampTransferBody,
  SimulateTransferBody,
  SimulateVirtualAccountDepositBody,
} from './rest-bodies.js';

type CustomerParams = { Params: { customer_id: string } };
type QuoteParams = { Params: { customer_id: string; quote_id: string } };
type TransferParams = { Params: { customer_id: string; transfer_id: string } };
type VirtualAccountParams = { Params: { customer_id: string; virtual_account_id: string } };

const base = (direction: TransferDirection) => `/v0/customers/:customer_id/${direction}-transfer`;

/**
 * Spec §4.4 and §4.5, plus the sandbox simulate extensions (README "Sandbox settlement"): each route
 * parses the spec's body (rest-bodies.ts) and calls its use case, whose field errors point into the body.
 */
export function transferRoutes(app: FastifyInstance, { transfers }: Services) {
  // ——— On-ramp (§4.4) ———
  app.post<CustomerParams>(`${base('onramp')}/quote`, (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => ({
      status: 201,
      body: presentQuote(
        await withRestPointers(transfers.createOnrampQuote(scope, request.params.customer_id, parseInput(OnrampQuoteBody, request.body))),
        null,
      ),
    })),
  );

  app.post<QuoteParams>(`${base('onramp')}/quote/:quote_id`, (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      const body = parseInput(OnrampTransferBody, request.body);
      const { transfer, quote } = await withRestPointers(transfers.createOnrampTransfer(scope, request.params.customer_id, request.params.quote_id, body));
      return { status: 201, body: presentTransfer(transfer, quote) };
    }),
  );

  // ——— Off-ramp (§4.5) ———
  app.post<CustomerParams>(`${base('offramp')}/quote`, (request, reply) =>
    replyIdempotently(request, reply, { required: true }, async (scope) => {
      const body = parseInput(OfframpQuoteBody, request.body);
      const { quote, transfer } = await withRestPointers(transfers.createOfframpQuote(scope, request.params.customer_id, body));
      return { status: 201, body: presentOfframpQuote(quote, transfer) };
    }),
  );

  app.post<QuoteParams>(`${base('offramp')}/quote/:quote_id`, (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      const body = parseInput(OfframpTransferBody, request.body);
      const { transfer, quote } = await withRestPointers(transfers.createOfframpTransfer(scope, request.params.customer_id, request.params.quote_id, body));
      return { status: 201, body: presentOfframpTransfer(transfer, quote, { masked: false }) };
    }),
  );

  app.post<TransferParams>(`${base('offramp')}/:transfer_id/complete`, (request, reply) =>
    replyIdempotently(request, reply, { required: true }, async (scope) => {
      const body = parseInput(OfframpDepositBody, request.body);
      const { transfer, quote } = await withRestPointers(
        transfers.completeOfframpTransfer(scope, request.params.customer_id, request.params.transfer_id, body),
      );
      return { status: 200, body: presentTransfer(transfer, quote) };
    }),
  );

  // ——— Reads, both directions ———
  for (const direction of ['onramp', 'offramp'] as const) {
    app.get<TransferParams>(`${base(direction)}/:transfer_id`, async (request) => {
      const { transfer, quote } = await transfers.getForCustomer(requestScope(request), request.params.customer_id, direction, request.params.transfer_id);
      return presentTransfer(transfer, quote);
    });

    app.get<CustomerParams>(base(direction), async (request) => {
      const page = parseInput(OffsetPageQuery, request.query ?? {});
      const items = await transfers.listForCustomer(requestScope(request), request.params.customer_id, direction, page);
      return { items: items.map(({ transfer, quote }) => presentTransfer(transfer, quote)) };
    });

    // Extension: the partner calls a pending transfer off (pending → canceled; 409 from any other status).
    app.post<TransferParams>(`${base(direction)}/:transfer_id/cancel`, (request, reply) =>
      replyIdempotently(request, reply, { required: false }, async (scope) => {
        const { customer_id, transfer_id } = request.params;
        const { transfer, quote } = await transfers.cancel(scope, transfer_id, { customerId: customer_id, direction });
        return { status: 200, body: presentTransfer(transfer, quote) };
      }),
    );

    // Sandbox (403 first with a production key): { action: fiat_deposit | complete_transfer | fail_transfer | refund_transfer,
    // transfer_id, reason?, amount? (fiat_deposit only) }
    app.post<CustomerParams>(`${base(direction)}/simulate`, (request, reply) =>
      replyIdempotently(request, reply, { required: false }, async (scope) => {
        assertSandbox(scope.actor);
        const step = parseInput(SimulateTransferBody, request.body);
        const { transfer, quote } = await withRestPointers(transfers.simulateByAction(scope, request.params.customer_id, direction, step));
        return { status: 200, body: presentTransfer(transfer, quote) };
      }),
    );
  }

  // Sandbox: fiat arrives on a virtual account → a funded on-ramp transfer to its destination.
  app.post<VirtualAccountParams>('/v0/customers/:customer_id/virtual-account/:virtual_account_id/simulate', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      assertSandbox(scope.actor);
      const deposit = parseInput(SimulateVirtualAccountDepositBody, request.body);
      const { transfer, quote } = await withRestPointers(
        transfers.simulateVirtualAccountDeposit(scope, request.params.virtual_account_id, deposit, request.params.customer_id),
      );
      return { status: 201, body: presentTransfer(transfer, quote) };
    }),
  );
}
