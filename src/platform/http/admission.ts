import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { OverloadedError } from '../../domain/errors.js';
import { routePath } from './route-path.js';
import type { Metrics } from '../observability/metrics.js';
import { watchSaturation } from '../runtime/saturation.js';

/** The API: admitted. Health, readiness, docs and metrics always answer, so an overloaded instance can still be seen. */
const ADMITTED = /^\/(v0|v1|auth)\/|^\/graphql$/;
/** Seconds a shed request is told to wait. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 1;

type AdmissionConfig = Pick<
  Config,
  'ADMISSION_MAX_IN_FLIGHT' | 'ADMISSION_MAX_QUEUED' | 'ADMISSION_QUEUE_TIMEOUT_MS' | 'ADMISSION_LOOP_DELAY_LIMIT_MS' | 'ADMISSION_POOL_WAIT_LIMIT_MS'
>;

/**
 * Admission control for one instance: at most ADMISSION_MAX_IN_FLIGHT API requests are worked on
 * at once, up to ADMISSION_MAX_QUEUED more wait for a place, and the rest are answered 503 `overloaded`
 * with Retry-After before any work starts. A burst then waits here, where waiting is cheap, rather than
 * for a database connection, whose acquire timeout would end half of it as a (false) outage.
 *
 * A request that waited ADMISSION_QUEUE_TIMEOUT_MS is shed only when the instance is saturated
 * (platform/runtime/saturation.ts: event-loop delay, waits for a database connection). Otherwise the places are
 * held by work that is slow for a reason more concurrency doesn't worsen (a row lock, a slow client,
 * a chain call), and the request is admitted beyond the cap: 32 writers on an idle database are no
 * overload.
 *
 * Runs once the body is read (a refusal while the client still sends its body would reset the
 * connection), after the rate limiter and authentication, which cost no database round trip for a
 * key already verified; before validation and the route, where the work is.
 */
export function registerAdmission(app: FastifyInstance, deps: { config: AdmissionConfig; metrics?: Metrics; connectionWaitMs: () => number }) {
  const signals = watchSaturation(
    { loopDelayLimitMs: deps.config.ADMISSION_LOOP_DELAY_LIMIT_MS, poolWaitLimitMs: deps.config.ADMISSION_POOL_WAIT_LIMIT_MS },
    deps.connectionWaitMs,
  );
  app.addHook('onClose', async () => signals.close());
  const gate = admissionGate(deps.config, () => signals.saturatedBy() !== null);
  const admitted = new WeakSet<FastifyRequest>();
  app.addHook('preValidation', async (request, reply) => {
    if (!ADMITTED.test(routePath(request.url))) return;
    if (!(await gate.enter())) {
      deps.metrics?.requestShed();
      reply.header('retry-after', String(OVERLOADED_RETRY_AFTER_SECONDS));
      throw new OverloadedError(OVERLOADED_RETRY_AFTER_SECONDS);
    }
    admitted.add(request);
  });
  // Its place is given back once the answer is sent, or the client has gone (Fastify calls onResponse either way).
  const leave = async (request: FastifyRequest) => {
    if (admitted.delete(request)) gate.leave();
  };
  app.addHook('onResponse', leave);
  app.addHook('onRequestAbort', leave);
}

export interface AdmissionGate {
  /** Resolves true once the request may run, false when it is shed (queue full, or waited too long). */
  enter(): Promise<boolean>;
  leave(): void;
  readonly inFlight: number;
  readonly queued: number;
}

/**
 * A counting semaphore with a bounded queue, first come first served. A request that waited the queue timeout is shed
 * if `saturated()` says so then, and admitted beyond the cap otherwise.
 */
export function admissionGate(
  config: Pick<AdmissionConfig, 'ADMISSION_MAX_IN_FLIGHT' | 'ADMISSION_MAX_QUEUED' | 'ADMISSION_QUEUE_TIMEOUT_MS'>,
  saturated: () => boolean,
): AdmissionGate {
  let inFlight = 0;
  const waiting: Array<(admitted: boolean) => void> = [];
  return {
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiting.length;
    },
    enter() {
      if (inFlight < config.ADMISSION_MAX_IN_FLIGHT) {
        inFlight++;
        return Promise.resolve(true);
      }
      if (waiting.length >= config.ADMISSION_MAX_QUEUED) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const admit = (admitted: boolean) => {
          clearTimeout(timer);
          resolve(admitted);
        };
        const timer = setTimeout(() => {
          const at = waiting.indexOf(admit);
          if (at >= 0) waiting.splice(at, 1);
          if (saturated()) return resolve(false);
          inFlight++;
          resolve(true);
        }, config.ADMISSION_QUEUE_TIMEOUT_MS);
        waiting.push(admit);
      });
    },
    leave() {
      // The place passes straight to the next in line: inFlight stays the same.
      const next = waiting.shift();
      if (next) next(true);
      else inFlight--;
    },
  };
}
