import pg from 'pg';

const ADMIN_URL = process.env.BENCH_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The bench's own database on the local PostgreSQL: `ramp_bench_perf_<pid>`, dropped at the end. */
export async function createBenchDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `ramp_bench_perf_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => admin(`drop database if exists ${name} with (force)`) };
}
