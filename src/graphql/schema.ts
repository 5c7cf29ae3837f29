import { builder } from './builder.js';
import './scalars.js';
import './errors.js';
import '../modules/customers/graphql.js';

/** The whole schema: each module's graphql.ts adds its types and root fields to the builder. */
export const schema = builder.toSchema({ sortSchema: true });
