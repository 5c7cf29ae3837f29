import type { IMigrator, MigrationInfo } from '@mikro-orm/core';

/**
 * Applies the pending migrations, saying so one readable line a step: how many, each one as it
 * lands, and how long they took. Nothing when the schema is current.
 */
export async function migrate(migrator: Pick<IMigrator, 'getPending' | 'up' | 'on' | 'off'>, log: (message: string) => void = () => {}): Promise<void> {
  const pending = await migrator.getPending();
  if (!pending.length) return;
  const total = pending.length;
  log(`applying ${total} migration${total === 1 ? '' : 's'}…`);
  const started = performance.now();
  let done = 0;
  const applied = ({ name }: MigrationInfo) => log(`  migration ${++done}/${total}: ${name}`);
  migrator.on('migrated', applied);
  try {
    await migrator.up();
  } finally {
    migrator.off('migrated', applied);
  }
  log(`migrations done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
