/**
 * The P2 baseline: PostGraphile V5 (amber preset, production mode) on the same database copy,
 * a pg pool of 10 like Ramp's; it compiles a page and its relations into one statement.
 */
import { createServer } from 'node:http';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

const preset: GraphileConfig.Preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL!, schemas: ['public'], poolConfig: { max: 10 } })],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
server.keepAliveTimeout = 60_000;
server.on('error', (error) => {
  process.stderr.write(`${error}\n`);
  process.exit(1);
});
await serv.addTo(server);
await pgl.getSchema();
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`postgraphile listening on http://127.0.0.1:${process.env.PORT}\n`));
process.on('SIGTERM', () => void Promise.resolve(pgl.release()).then(() => process.exit(0)));
