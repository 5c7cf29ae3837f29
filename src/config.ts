import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

const list = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  /** PostgreSQL connection string; without it Ramp runs on embedded PGlite. */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  /** Where embedded PGlite keeps its files; `memory://` keeps nothing. */
  DATA_DIR: z.string().default('./.data/pglite'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Address the service is reached at, used in links it hands out (kyc_flow_link, docs). */
  PUBLIC_URL: z.string().url().optional(),
  /** GraphiQL and introspection; default on outside NODE_ENV=production. */
  GRAPHQL_INTROSPECTION: flag.optional(),
  /** Allowed CORS origins in production (comma separated). Outside production every origin is allowed. */
  CORS_ORIGINS: list.default([]),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Create the demo partner and print its sandbox key on first start. */
  BOOTSTRAP_DEMO_PARTNER: flag.default(true),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(12),
  GRAPHQL_MAX_COMPLEXITY: z.coerce.number().int().min(1).default(5000),
});

export type Config = z.infer<typeof ConfigSchema> & {
  graphiqlEnabled: boolean;
  isProduction: boolean;
};

/** Parses the environment once at start; a bad value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const isProduction = parsed.data.NODE_ENV === 'production';
  return {
    ...parsed.data,
    isProduction,
    graphiqlEnabled: parsed.data.GRAPHQL_INTROSPECTION ?? !isProduction,
  };
}

export function publicUrl(config: Config, port: number): string {
  return config.PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
}
