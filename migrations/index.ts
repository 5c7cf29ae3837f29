import { Migration20261122000100_foundation } from './Migration20261122000100_foundation.js';

/** Applied in this order at start; a migration once landed is never edited, only followed. */
export const migrations = [Migration20261122000100_foundation];
