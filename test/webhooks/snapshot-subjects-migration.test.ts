import { describe, expect, it } from 'vitest';
import { renameSubjectFragments } from '../../migrations/foundation/Migration20261126000400_snapshot_subjects.js';

describe('the migration of stored webhook subscription queries to snapshot subjects', () => {
  it('renames the live types of fragments under subject, and nothing else', () => {
    const renamed = renameSubjectFragments(
      'subscription { events { type subject { __typename ... on OnrampTransfer { id status customer { ... on Customer { id } } } ... on Customer { email } } } }',
    );
    expect(renamed).toContain('... on OnrampTransferSnapshot');
    expect(renamed).toContain('... on CustomerSnapshot');
    // A fragment inside a relation of the subject names the relation's own (live) type and stays.
    expect(renamed).toMatch(/customer \{\s*\.\.\. on Customer \{/);
  });

  it('leaves a query with nothing to rename alone', () => {
    expect(renameSubjectFragments('subscription { events { type cursor } }')).toBeNull();
  });
});
