import { builder } from './builder.js';
import './scalars.js';
import './errors.js';
import './node.js';
// Each feature's feature.ts imports its Pothos types and root fields, which register with the builder.
import '../features.js';

/** The whole schema, as the features registered it. */
export const schema = builder.toSchema({ sortSchema: true });
