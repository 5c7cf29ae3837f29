import { Redis } from 'ioredis';
import type { Logger } from '../observability/logging.js';

// A slow or unreachable Redis must cost a request little: fail fast, then carry on without it.
const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * A Redis connection for a limiter (the request rate limit, the GraphQL cost budget): commands fail
 * fast instead of queueing while Redis is away, and it reconnects by itself. `name` shows in CLIENT LIST.
 */
export async function connectRedis(url: string, name: string, logger: Logger, what: string): Promise<Redis> {
  const redis = new Redis(url, {
    // CLIENT LIST then shows which deployment holds a connection.
    connectionName: name.replace(/\s/g, '_'),
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  });
  let reported = false;
  redis.on('error', (error) => {
    if (!reported) logger.warn({ err: error }, `${what}: Redis connection error; reconnecting`);
    reported = true;
  });
  redis.on('ready', () => (reported = false));
  try {
    await redis.connect();
  } catch (error) {
    logger.warn({ err: error }, `${what}: Redis unreachable at start; carrying on without it until it answers`);
  }
  return redis;
}

/** Closes a limiter's connection on shutdown, whatever state it is in. */
export const closeRedis = async (redis: Redis) => void (await redis.quit().catch(() => redis.disconnect()));
