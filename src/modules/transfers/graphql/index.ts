/** Quotes and transfers in GraphQL: types (with dataloaders), queries, mutations. */
import './types.js';
import './queries.js';
import './mutations.js';
