import type { FastifyInstance } from 'fastify';
import type { Options } from '@mikro-orm/core';
import type { Config } from '../config.js';
import type { Job } from './jobs.js';

/** MikroORM entity definitions, as the ORM's `entities` option takes them. */
export type EntityDefinitions = NonNullable<Options['entities']>;

/**
 * What one feature module contributes to the service: its entities, REST routes and background
 * jobs (its `feature.ts` also imports its Pothos types, which register with the shared builder).
 * The composition root (`src/features.ts`, `src/app.ts`) assembles them, so nothing in
 * `platform/` names a feature.
 */
export interface Feature<Services> {
  name: string;
  entities?: EntityDefinitions;
  /** Registers the feature's routes; called once at start with the shared services. */
  routes?: (app: FastifyInstance, services: Services) => void | Promise<void>;
  /** Background jobs the job runner polls (platform/jobs.ts). */
  jobs?: (config: Config) => readonly Job[];
}
