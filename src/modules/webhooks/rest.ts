import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validation.js';
import { fingerprint, idempotencyKeyOfHeader, answerDeclared } from '../../platform/use-cases/idempotency.js';
import { contract } from '../../rest/openapi/contract.js';
import { listOf } from '../../rest/openapi/schemas.js';
import { requestScope, withRestPointers } from '../../rest/routes.js';
import type { Services } from '../../services.js';
import { presentRegisteredWebhook, presentWebhook } from './presenters.js';
import { NewWebhookBody, RegisteredWebhookAnswer, WebhookAnswer, newWebhookOf } from './rest-bodies.js';
import type { EndpointWithSecret } from './service.js';

type WebhookParams = { Params: { webhookId: string } };
const tag = 'Webhooks';

/** The partner API's webhook routes, plus GET /v0/webhooks (an extension: the list, never the secrets). */
export function webhookRoutes(app: FastifyInstance, { webhooks }: Services) {
  // Idempotent like every POST, but the stored response holds only the webhook id: the signing
  // secret never sits in clear in the idempotency store; a replay decrypts it from the webhook.
  app.post(
    '/v0/webhooks',
    contract({
      operationId: 'registerWebhook',
      scope: 'webhooks',
      summary: 'Register a webhook endpoint',
      tag,
      idempotencyKey: 'optional',
      body: NewWebhookBody,
      example: { url: 'http://127.0.0.1:8080/ramp/webhooks' },
      responses: { 201: { description: 'The webhook and its signing secret (shown only here)', body: RegisteredWebhookAnswer } },
      // Registering needs `webhooks`, which reads the endpoint it made (its secret is shown only here).
      withoutRead: 'whole',
      errors: ['webhook_url_taken', 'webhook_endpoint_limit'],
    }),
    async (request, reply) => {
      const scope = requestScope(request);
      const key = idempotencyKeyOfHeader(request.headers['idempotency-key'], false);
      const webhook = newWebhookOf(parseInput(NewWebhookBody, request.body));
      const registration = await withRestPointers(webhooks.prepareRegistration(scope, webhook));
      const outcome = await answerDeclared(
        scope,
        {
          key,
          fingerprint: fingerprint('POST /v0/webhooks', request.body ?? null),
          answer: (registered: EndpointWithSecret) => ({ status: 201, body: { id: registered.endpoint.id } }),
        },
        (declared) => webhooks.register(declared, registration),
      );
      const registered = outcome.result ?? (await webhooks.withSecret(scope, (outcome.body as { id: string }).id));
      if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
      return reply.code(outcome.status).send(presentRegisteredWebhook(registered));
    },
  );

  // Every endpoint fits one page (a partner has a handful at most), so `has_more` is always false.
  app.get(
    '/v0/webhooks',
    contract({
      operationId: 'listWebhooks',
      scope: 'read',
      summary: 'List webhook endpoints (never their secrets)',
      tag,
      responses: { 200: { description: 'Every webhook endpoint', body: listOf(WebhookAnswer) } },
    }),
    async (request) => ({ items: (await webhooks.list(requestScope(request))).map(presentWebhook), has_more: false }),
  );

  app.delete<WebhookParams>(
    '/v0/webhooks/:webhookId',
    contract({ operationId: 'deleteWebhook', scope: 'webhooks', summary: 'Delete a webhook endpoint', tag, responses: { 204: { description: 'Deleted' } } }),
    async (request, reply) => {
      await webhooks.delete(requestScope(request), request.params.webhookId);
      return reply.code(204).send();
    },
  );
}
