import type { FastifyInstance } from 'fastify';
import { type Actor, assertSandbox } from '../../domain/environment.js';
import { parseInput } from '../../domain/validation.js';
import { contract } from '../../rest/openapi/contract.js';
import { replyIdempotently, requestScope, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { presentFaucetMint, presentFiatRails, presentNetwork } from './presenters.js';
import { FaucetBody, FaucetMintAnswer, NetworkListAnswer } from './rest-bodies.js';

const tag = 'Networks';

/** Ramp's extensions: which chains are live, and the sandbox faucet (docs/api/chains.md). */
export function networkRoutes(app: FastifyInstance, { networks }: Services) {
  const listing = (actor: Actor) => ({ items: networks.list(actor).map(presentNetwork), fiat_rails: networks.fiatRails(actor).map(presentFiatRails) });

  app.get(
    '/v0/networks',
    contract({
      operationId: 'listNetworks',
      scope: 'read',
      summary: "The six networks as the key's environment has them: live, simulated or not_connected; and which fiat its bank moves (fiat_rails)",
      tag,
      responses: { 200: { description: 'Every network, in a fixed order', body: NetworkListAnswer } },
    }),
    async (request) => listing(requestScope(request).actor),
  );

  app.get(
    '/v0/sandbox/networks',
    contract({
      operationId: 'listSandboxNetworks',
      scope: 'read',
      summary: "Sandbox: the six networks, which run on the sandbox's local chain (live) and which are simulated",
      tag,
      sandboxOnly: true,
      responses: { 200: { description: 'Every network, in a fixed order', body: NetworkListAnswer } },
    }),
    async (request) => {
      const { actor } = requestScope(request);
      assertSandbox(actor);
      return listing(actor);
    },
  );

  app.post(
    '/v0/sandbox/faucet',
    contract({
      operationId: 'mintTestTokens',
      scope: 'simulate',
      summary: 'Sandbox: mint test USDC or USDT to any address of a live network, with gas to move them',
      tag,
      idempotencyKey: 'optional',
      sandboxOnly: true,
      body: FaucetBody,
      example: { network: 'polygon', token: 'usdc', address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', amount: '250.00' },
      responses: { 201: { description: 'The mint, mined on the chain: the tokens are in the wallet', body: FaucetMintAnswer } },
      withoutRead: ['transaction_hash'],
      errors: ['network_not_live', 'token_not_offered_on_network'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false, sandboxOnly: true },
        {
          run: (scope) => withRestPointers(networks.faucet(scope, parseInput(FaucetBody, request.body))),
          answer: (mint) => ({ status: 201, body: presentFaucetMint(mint) }),
        },
      ),
  );
}
