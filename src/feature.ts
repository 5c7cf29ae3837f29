import type { FastifyInstance } from 'fastify';
import type { EntityClass } from '@mikro-orm/core';
import type { Config } from './config.js';
import type { Job } from './platform/runtime/jobs.js';
import type { EntityDefinitions } from './platform/db/database.js';

export type { EntityDefinitions } from './platform/db/database.js';

/**
 * An object events can be about: the GraphQL object type that shows it (a Pothos loadable node ref,
 * so a subject the event did not keep loads by id) and the entity whose columns the event keeps.
 * The ref stays opaque here (platform knows no schema); the events module reads it.
 */
export interface EventSubject {
  ref: object;
  /** The GraphQL type of the subject as an event kept it: its own id, so caches never roll the live object back. */
  snapshot: object;
  entity: EntityClass<object>;
  /** What the GraphQL type resolves from, made of a kept snapshot of the entity (the entity itself when absent). */
  present?: (kept: object) => object;
}

/** What building the GraphQL schema needs of a feature (graphql/schema.ts). */
export type FeatureTypes = Pick<Feature<never>, 'types' | 'subjects'>;

/**
 * What one feature module contributes to the service: its entities, REST routes, GraphQL types,
 * event subjects and background jobs. The composition root (`src/features.ts`, `src/app.ts`)
 * assembles them, so nothing in `platform/` or `graphql/` names a feature.
 */
export interface Feature<Services> {
  name: string;
  entities?: EntityDefinitions;
  /** Registers the feature's routes; called once at start with the shared services. */
  routes?: (app: FastifyInstance, services: Services) => void | Promise<void>;
  /**
   * Loads the feature's Pothos types and root fields, which register with the shared builder; the
   * schema is built once every feature's have (graphql/schema.ts). It is given every feature, for the
   * one that gathers what the others contribute (events gathers their `subjects`).
   */
  types?(features: readonly FeatureTypes[]): Promise<unknown>;
  /** The objects this feature's events are about, by the events' `entityType` (events/subjects.ts). */
  subjects?(): Promise<Readonly<Record<string, EventSubject>>>;
  /**
   * The GraphQL documents the feature's own frontend sends by hash (`{ "sha256:<hex>": document }`): trusted whatever
   * GRAPHQL_TRUSTED_DOCUMENTS holds. Asked again when a hash is not among those it gave last (a rebuilt frontend).
   */
  trustedDocuments?: () => Promise<Readonly<Record<string, string>>>;
  /** Background jobs the job runner polls (platform/runtime/jobs.ts). */
  jobs?: (config: Config) => readonly Job[];
  /** Jobs that follow the chains (watchers, payout senders), polled every CHAIN_POLL_INTERVAL_MS by a runner of their own. */
  chainJobs?: (services: Services) => readonly Job[];
}
