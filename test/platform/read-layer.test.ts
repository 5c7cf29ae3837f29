import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The read layer's rules (issue 23): a module reads through one query file (`<module>/queries.ts`)
 * whose statements all start from `tenant(scope, table, alias)` (platform/queries.ts), the one place
 * that calls Kysely's `selectFrom`: a read cannot forget the caller's tenant. No library is patched.
 */
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

/** What in a file builds a statement past the tenant helper: Kysely's own entry points. */
const untenanted = (source: string) => source.match(/\.(selectFrom|getKysely|selectNoFrom)\(|\bsql`\s*select\b/g) ?? [];

const queryFiles = sourceFiles('src/modules').filter((file) => file.endsWith('/queries.ts') && !file.includes('/graphql/'));

describe('the read layer', () => {
  it('reads through one query file per module, every statement started by tenant()', () => {
    expect(queryFiles).toEqual(expect.arrayContaining(['src/modules/customers/queries.ts', 'src/modules/transfers/queries.ts']));
    for (const file of queryFiles) expect(readFileSync(file, 'utf8'), file).toMatch(/\btenant\(scope, '/);
    const offending = sourceFiles('src')
      .filter((file) => file !== 'src/platform/queries.ts')
      .map((file) => ({ file, found: untenanted(readFileSync(file, 'utf8')) }))
      .filter(({ found }) => found.length > 0);
    expect(offending).toEqual([]);
  });

  it('fails a read that starts from Kysely itself and so could forget the tenant', () => {
    const forgetful = `export const everyTransfer = (em: EntityManager) => em.getKysely().selectFrom('transfers as t').selectAll().execute();`;
    expect(untenanted(forgetful)).toEqual(['.getKysely(', '.selectFrom(']);
  });

  it('patches no library: no prototype assignment in src outside platform/db/pglite', () => {
    const patched = sourceFiles('src').filter(
      (file) => !file.startsWith('src/platform/db/pglite/') && /prototype\.[A-Za-z_]+ *=/.test(readFileSync(file, 'utf8')),
    );
    expect(patched).toEqual([]);
  });
});
