import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../domain/validation.js';
import { checkIdempotencyKey, fingerprint, runIdempotently } from '../../platform/idempotency.js';
import { requestScope, withRestPointers } from '../../platform/rest.js';
import type { Services } from '../../services.js';
import { presentRegisteredWebhook, presentWebhook } from './presenters.js';
import { NewWebhookBody, newWebhookOf } from './rest-bodies.js';

type WebhookParams = { Params: { webhookId: string } };

/** Spec §4.6, plus GET /v0/webhooks (an extension: the list, never the secrets). */
export function webhookRoutes(app: FastifyInstance, { webhooks }: Services) {
  // Idempotent like every POST, but the stored response holds only the webhook id: the signing
  // secret never sits in clear in the idempotency store; a replay decrypts it from the webhook.
  app.post('/v0/webhooks', async (request, reply) => {
    const scope = requestScope(request);
    const header = request.headers['idempotency-key'];
    const key = checkIdempotencyKey(Array.isArray(header) ? header[0] : header, false);
    const webhook = newWebhookOf(parseInput(NewWebhookBody, request.body));
    const registration = await withRestPointers(webhooks.prepareRegistration(scope, webhook));
    const outcome = await runIdempotently(scope.em, scope.actor, { key, fingerprint: fingerprint('POST /v0/webhooks', request.body ?? null) }, async (em) => {
      const registered = await webhooks.register({ ...scope, em }, registration);
      return { status: 201, body: { id: registered.endpoint.id }, result: registered };
    });
    const registered = outcome.result ?? (await webhooks.withSecret(scope, (outcome.body as { id: string }).id));
    if (outcome.replayed) reply.header('Idempotent-Replayed', 'true');
    return reply.code(outcome.status).send(presentRegisteredWebhook(registered));
  });

  app.get('/v0/webhooks', async (request) => ({ items: (await webhooks.list(requestScope(request))).map(presentWebhook) }));

  app.delete<WebhookParams>('/v0/webhooks/:webhookId', async (request, reply) => {
    await webhooks.delete(requestScope(request), request.params.webhookId);
    return reply.code(204).send();
  });
}
