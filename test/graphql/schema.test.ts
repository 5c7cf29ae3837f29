import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../../scripts/print-schema.js';

describe('schema.graphql', () => {
  it('matches the schema the code builds (run `npm run schema:print` after changing GraphQL code)', () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(printedSchema());
  });
});
