import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ConflictError, DomainError, NotFoundError } from '../../domain/errors.js';
import type { Scope } from '../../platform/use-cases/scope.js';
import type { Services } from '../../services.js';
import { kycReturnUrl } from './kyc-links.js';
import { KYC_PAGE_ACTIONS, type KycPageAction, renderKycPage, renderKycPageNotFound } from './kyc-page-view.js';

type PageRequest = { Params: { customerId: string } };

// The link's token is a credential: no caching, no referrer leaking it, no framing.
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
};

const html = (reply: FastifyReply, status: number, body: string) => reply.code(status).headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(body);

const isAction = (value: unknown): value is KycPageAction => typeof value === 'string' && Object.hasOwn(KYC_PAGE_ACTIONS, value);

/**
 * The sandbox verification page that `kyc_flow_link` points to. It needs no API key: the
 * unguessable token in the link is the credential. Its buttons call the same use cases as the
 * GraphQL simulations. Access lines are logged at warn only, so the token in the URL never
 * reaches the info-level request log.
 */
export function kycPageRoutes(app: FastifyInstance, { customers }: Services) {
  app.register(async (page) => {
    // Form bodies are parsed here only; the API keeps refusing anything but JSON (415).
    await page.register(formbody);

    page.get<PageRequest & { Querystring: { token?: string } }>('/sandbox/kyc/:customerId', { logLevel: 'warn' }, async (request, reply) => {
      const { customerId } = request.params;
      const token = typeof request.query.token === 'string' ? request.query.token : undefined;
      try {
        const scope = await customers.kycPageScope(request.em, customerId, token);
        const customer = await customers.get(scope, customerId);
        return html(reply, 200, renderKycPage(customer, token!, { returnTo: kycReturnUrl(customer) }));
      } catch (error) {
        if (error instanceof NotFoundError) return html(reply, 404, renderKycPageNotFound());
        throw error;
      }
    });

    page.post<PageRequest & { Body: { token?: unknown; action?: unknown } | undefined }>(
      '/sandbox/kyc/:customerId',
      { logLevel: 'warn' },
      async (request, reply) => {
        const { customerId } = request.params;
        const token = typeof request.body?.token === 'string' ? request.body.token : undefined;
        const action = request.body?.action;
        let scope: Scope;
        try {
          scope = await customers.kycPageScope(request.em, customerId, token);
        } catch (error) {
          if (error instanceof NotFoundError) return html(reply, 404, renderKycPageNotFound());
          throw error;
        }
        try {
          if (!isAction(action)) {
            return html(reply, 400, renderKycPage(await customers.get(scope, customerId), token!, { notice: 'Choose submit, approve or reject.' }));
          }
          if (action === 'submit') await customers.submitKyc(scope, customerId);
          else await customers.decideKyc(scope, customerId, action === 'approve' ? 'approved' : 'rejected');
          // Post/redirect/get: reloading the page does not repeat the decision. The page itself returns a
          // decided applicant to the link's redirect URI (a redirect from here would break form-action 'self').
          return reply
            .code(303)
            .headers(PAGE_HEADERS)
            .header('location', `/sandbox/kyc/${customerId}?token=${encodeURIComponent(token!)}`)
            .send();
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          const status = error instanceof ConflictError ? 409 : 400;
          const customer = await customers.get(scope, customerId);
          return html(reply, status, renderKycPage(customer, token!, { notice: error.message, returnTo: kycReturnUrl(customer) }));
        }
      },
    );
  });
}
