import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { TransferTables } from '../../src/modules/transfers/entities.js';
import { readsOver } from '../../src/platform/reads/queries.js';
import type { Scope } from '../../src/platform/use-cases/scope.js';

/**
 * The read layer's rules: a module reads through one query file (`<module>/queries.ts`)
 * whose statements all start from `tenant(scope, table, alias)` (platform/reads/queries.ts), the one place
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
    const paged = ['audit', 'bank-accounts', 'customers', 'ledger', 'partners', 'transfers', 'virtual-accounts', 'webhooks'];
    expect(queryFiles).toEqual(expect.arrayContaining(paged.map((module) => `src/modules/${module}/queries.ts`)));
    for (const file of queryFiles) expect(readFileSync(file, 'utf8'), file).toMatch(/\btenant\(scope, '/);
    const offending = sourceFiles('src')
      .filter((file) => file !== 'src/platform/reads/queries.ts')
      .map((file) => ({ file, found: untenanted(readFileSync(file, 'utf8')) }))
      .filter(({ found }) => found.length > 0);
    expect(offending).toEqual([]);
  });

  it('fails a read that starts from Kysely itself and so could forget the tenant', () => {
    const forgetful = `export const everyTransfer = (em: EntityManager) => em.getKysely().selectFrom('transfers as t').selectAll().execute();`;
    expect(untenanted(forgetful)).toEqual(['.getKysely(', '.selectFrom(']);
  });

  it('pages every keyset list with one function, keyset() of platform/reads/queries.ts', () => {
    const pagers = sourceFiles('src').filter((file) => /export (async )?function keyset\w*[<(]/.test(readFileSync(file, 'utf8')));
    expect(pagers).toEqual(['src/platform/reads/queries.ts']);
    // A page spelled out as MikroORM conditions on a position is a second pager.
    const byHand = sourceFiles('src').filter((file) => /\$or: \[\{ \w+: \{ \$[lg]t/.test(readFileSync(file, 'utf8')));
    expect(byHand).toEqual([]);
  });

  it('types every statement by the tables it reads: a table, a column or a value the entities do not have fails to compile', () => {
    // Checked by `tsc --noEmit` (npm test runs it first): each line under @ts-expect-error must be an error.
    const { tenant } = readsOver<TransferTables>();
    const compiling = new Kysely<unknown>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    const scope = { em: { getKysely: () => compiling }, actor: { partnerId: 'p', environment: 'sandbox' } } as unknown as Scope;
    const statements = () => [
      // @ts-expect-error a table the module's entities do not define
      tenant(scope, 'transfer', 't'),
      // @ts-expect-error a table without the tenant's columns (partner_id, environment) cannot be driven by tenant()
      tenant(scope, 'transfer_status_history', 'h'),
      // @ts-expect-error a column transfers do not have
      tenant(scope, 'transfers', 't').where('t.amount', '=', '1'),
      // @ts-expect-error a value the column cannot hold (status is an enum)
      tenant(scope, 'transfers', 't').where('t.status', '=', 'settled'),
    ];
    expect(statements).toBeTypeOf('function');
    // What does compile: the tenant comes first, the typed condition after it.
    const { sql, parameters } = tenant(scope, 'transfers', 't').select('t.id').where('t.status', '=', 'completed').compile();
    expect(sql).toBe('select "t"."id" from "transfers" as "t" where "t"."partner_id" = $1 and "t"."environment" = $2 and "t"."status" = $3');
    expect(parameters).toEqual(['p', 'sandbox', 'completed']);
  });

  it('patches no library: no prototype assignment in src outside platform/db/pglite', () => {
    const patched = sourceFiles('src').filter(
      (file) => !file.startsWith('src/platform/db/pglite/') && /prototype\.[A-Za-z_]+ *=/.test(readFileSync(file, 'utf8')),
    );
    expect(patched).toEqual([]);
  });
});
