import { type GraphQLSchema, specifiedDirectives } from 'graphql';
import type { FeatureTypes } from '../feature.js';
import { builder } from './builder.js';
import { INCREMENTAL_DIRECTIVES } from './incremental.js';
import './types/scalars.js';
import './types/errors.js';
import './types/node.js';

let built: Promise<GraphQLSchema> | undefined;

/**
 * The whole schema: the shared types above, and each feature's Pothos types and root fields, which
 * the composition root hands in (`Feature.types`), so this file names no feature. The builder is
 * one per process, so the schema is built once; later calls return that schema.
 */
export function buildSchema(features: readonly FeatureTypes[]): Promise<GraphQLSchema> {
  built ??= (async () => {
    for (const feature of features) await feature.types?.(features);
    return builder.toSchema({ sortSchema: true, directives: [...specifiedDirectives, ...INCREMENTAL_DIRECTIVES] });
  })();
  return built;
}
