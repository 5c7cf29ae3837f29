/**
 * A yardstick for `bench:cpu`: the best plain service (best.ts) served by Fastify with no plugin and no hook,
 * and the same on GraphQL by Yoga (a one-field schema, no plugin) inside it. What these cost over node:http is
 * the part of Ramp's gap that the frameworks take before any of Ramp's own work, so no cut in Ramp closes it.
 */
import { createSchema, createYoga } from 'graphql-yoga';
import Fastify from 'fastify';
import { authenticate, readTransfer } from './best-read.js';

const app = Fastify({ logger: false });
app.get<{ Params: { customer: string; transfer: string } }>('/v0/customers/:customer/onramp-transfer/:transfer', async (request, reply) => {
  const actor = await authenticate(request.headers.authorization);
  if (!actor) return reply.code(401).send({ error: 'unauthorized' });
  const found = await readTransfer(actor, request.params.customer, request.params.transfer);
  return found ?? reply.code(404).send({ error: 'not_found' });
});

const yoga = createYoga<{ authorization?: string }>({
  schema: createSchema({
    typeDefs:
      'type Transfer { id: ID! status: String! createdAt: String! amount: String destinationAmount: String } type Query { transfer(id: ID!): Transfer }',
    resolvers: {
      Query: {
        // The transfer by id alone: the yardstick checks the key and reads one row, as Ramp's transfer(id) does.
        transfer: async (_: unknown, { id }: { id: string }, { authorization }: { authorization?: string }) => {
          const actor = await authenticate(authorization);
          if (!actor) throw new Error('unauthorized');
          const found = (await readTransfer(actor, null, id)) as Record<string, unknown> | null;
          return found && { ...found, createdAt: found.created_at, destinationAmount: found.destination_amount };
        },
      },
    },
  }),
  logging: false,
  landingPage: false,
});
app.route({
  url: '/graphql',
  method: ['POST'],
  handler: async (request, reply) => {
    const response = await yoga.handleNodeRequestAndResponse(request, reply, { authorization: request.headers.authorization });
    reply.status(response.status).header('content-type', 'application/json');
    return reply.send(await response.text());
  },
});
app
  .listen({ port: Number(process.env.PORT), host: '127.0.0.1' })
  .then(() => process.stdout.write(`best-fastify listening on http://127.0.0.1:${process.env.PORT}\n`));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
