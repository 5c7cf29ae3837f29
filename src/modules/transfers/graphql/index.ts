/** Quotes and transfers in GraphQL: types (with dataloaders), queries, mutations, live updates. */
import './types.js';
import './queries.js';
import './mutations.js';
import './updates.js';
