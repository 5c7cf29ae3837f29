import type { FastifyInstance } from 'fastify';
import { encryptusSuccess } from '../../platform/http-errors.js';
import { parseInput } from '../../domain/validation.js';
import { replyIdempotently, requestScope, withRestPointers } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { presentAccountInfo, presentBankAccount, presentWalletAddress } from './presenters.js';
import { PARTNER_POINTERS, WhitelistBankAccountBody, WhitelistWalletAddressBody, bankAccountOf, walletAddressOf } from './rest-bodies.js';

/**
 * Spec §4.7, Encryptus's half of the API. The spec writes the whitelist paths with a double slash
 * (`/v1//partners/...`); Fastify's ignoreDuplicateSlashes routes that and the single-slash
 * spelling to the same handler. Each route parses the spec's body (rest-bodies.ts), calls the use
 * case and answers in the Encryptus envelope.
 */
export function partnerRoutes(app: FastifyInstance, { partners }: Services) {
  // `info` and `message` are the spec's keys; the envelope's success/status/code sit beside them.
  app.get('/v1/partners/accountInfo', async (request) => {
    const { data: _none, ...envelope } = encryptusSuccess(200, 'Partner info fetched successfully', null);
    return { ...envelope, info: presentAccountInfo(await partners.accountInfo(requestScope(request))) };
  });

  app.post('/v1/partners/forensics/whitelist/walletAddress', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      const entry = walletAddressOf(parseInput(WhitelistWalletAddressBody, request.body));
      const whitelisted = await withRestPointers(partners.whitelistWalletAddress(scope, entry), PARTNER_POINTERS);
      return { status: 200, body: encryptusSuccess(200, 'Wallet address whitelisted successfully', presentWalletAddress(whitelisted)) };
    }),
  );

  app.post('/v1/partners/forensics/whitelist/bankAccount', (request, reply) =>
    replyIdempotently(request, reply, { required: false }, async (scope) => {
      const account = bankAccountOf(parseInput(WhitelistBankAccountBody, request.body));
      const whitelisted = await withRestPointers(partners.whitelistBankAccount(scope, account), PARTNER_POINTERS);
      return { status: 200, body: encryptusSuccess(200, 'Bank account whitelisted successfully', presentBankAccount(whitelisted, 'clear')) };
    }),
  );
}
