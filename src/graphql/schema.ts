import { builder } from './builder.js';
import './scalars.js';
import './errors.js';
import '../modules/customers/graphql.js';
import '../modules/kyc-import/graphql.js';
import '../modules/kyb/graphql.js';
import '../modules/bank-accounts/graphql.js';
import '../modules/virtual-accounts/graphql.js';
import '../modules/ledger/graphql.js';
import '../modules/transfers/graphql/index.js';
import '../modules/partners/graphql.js';
import '../modules/events/graphql.js';
import '../modules/webhooks/graphql.js';

/** The whole schema: each module's graphql.ts adds its types and root fields to the builder. */
export const schema = builder.toSchema({ sortSchema: true });
