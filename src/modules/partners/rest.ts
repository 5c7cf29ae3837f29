import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validation.js';
import { encryptusSuccess } from '../../rest/http-errors.js';
import { contract } from '../../rest/openapi/contract.js';
import { encryptusSuccessOf, ENVELOPE_FIELDS } from '../../rest/openapi/schemas.js';
import { replyIdempotently, requestScope, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { presentAccountInfo, presentBankAccount, presentWalletAddress } from './presenters.js';
import {
  AccountInfoAnswer,
  PARTNER_POINTERS,
  WhitelistBankAccountBody,
  WhitelistWalletAddressBody,
  WhitelistedBankAccountAnswer,
  WhitelistedWalletAddressAnswer,
  bankAccountOf,
  walletAddressOf,
} from './rest-bodies.js';

const tag = 'Partner (/v1)';

/**
 * Encryptus's half of the partner API. The contract writes the whitelist paths with a double slash
 * (`/v1//partners/...`); Fastify's ignoreDuplicateSlashes routes that and the single-slash
 * spelling to the same handler (the OpenAPI document keeps the spec's spelling). Each route parses
 * the spec's body (rest-bodies.ts), calls the use case and answers in the Encryptus envelope.
 */
export function partnerRoutes(app: FastifyInstance, { partners }: Services) {
  // `info` and `message` are the spec's keys; the envelope's success/status/code sit beside them.
  app.get(
    '/v1/partners/accountInfo',
    contract({
      operationId: 'getAccountInfo',
      scope: 'read',
      summary: "The partner's account: whitelists, customers, deposit addresses, balances",
      tag,
      responses: { 200: { description: 'The account, under `info`', body: AccountInfoAnswer } },
    }),
    async (request) => {
      const { data: _none, ...envelope } = encryptusSuccess(200, 'Partner info fetched successfully', null);
      return { ...envelope, info: presentAccountInfo(await partners.accountInfo(requestScope(request))) };
    },
  );

  app.post(
    '/v1/partners/forensics/whitelist/walletAddress',
    contract({
      operationId: 'whitelistWalletAddress',
      scope: 'write',
      summary: 'Whitelist a wallet address',
      tag,
      idempotencyKey: 'optional',
      body: WhitelistWalletAddressBody,
      example: { address: '0x1111111111111111111111111111111111111111', coin: 'usdc', network: 'polygon', label: 'treasury' },
      responses: { 200: { description: 'The whitelisted address', body: encryptusSuccessOf(WhitelistedWalletAddressAnswer) } },
      withoutRead: [...ENVELOPE_FIELDS, 'data.id'],
      errors: ['wallet_address_already_whitelisted'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false },
        {
          run: (scope) =>
            withRestPointers(partners.whitelistWalletAddress(scope, walletAddressOf(parseInput(WhitelistWalletAddressBody, request.body))), PARTNER_POINTERS),
          answer: (whitelisted) => ({ status: 200, body: encryptusSuccess(200, 'Wallet address whitelisted successfully', presentWalletAddress(whitelisted)) }),
        },
      ),
  );

  app.post(
    '/v1/partners/forensics/whitelist/bankAccount',
    contract({
      operationId: 'whitelistBankAccount',
      scope: 'write',
      summary: 'Whitelist a bank account',
      tag,
      idempotencyKey: 'optional',
      body: WhitelistBankAccountBody,
      example: {
        accountHolderName: 'Acme Trading GmbH',
        accountHolderAddress: 'Friedrichstraße 1, 10117 Berlin',
        beneficiaryBankName: 'Commerzbank AG',
        beneficiaryBankAddress: 'Kaiserplatz, 60311 Frankfurt am Main',
        beneficiaryBankCountry: 'DE',
        bankAccountNumber: 'DE89370400440532013000',
        bicSwift: 'COBADEFFXXX',
        fiatCurrency: 'EUR',
      },
      responses: { 200: { description: 'The whitelisted account, number in full (only here)', body: encryptusSuccessOf(WhitelistedBankAccountAnswer) } },
      withoutRead: [...ENVELOPE_FIELDS, 'data.id'],
      errors: ['bank_account_already_whitelisted'],
    }),
    (request, reply) =>
      replyIdempotently(
        request,
        reply,
        { required: false },
        {
          run: (scope) =>
            withRestPointers(partners.whitelistBankAccount(scope, bankAccountOf(parseInput(WhitelistBankAccountBody, request.body))), PARTNER_POINTERS),
          answer: (whitelisted) => ({
            status: 200,
            body: encryptusSuccess(200, 'Bank account whitelisted successfully', presentBankAccount(whitelisted, 'clear')),
          }),
        },
      ),
  );
}
