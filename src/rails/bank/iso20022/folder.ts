import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, readFile, readdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BankFile, BankTransport } from '../../port.js';

/** The folders of BANK_ISO20022_DIR: what Ramp writes, what the bank leaves, and where each read file ends up. */
export const FOLDERS = ['outbox', 'inbox', 'processed', 'rejected'] as const;

/**
 * The folder transport, the one BankTransport (rails/port.ts) today: the bank (or the host-to-host client that speaks to it) takes files from `outbox/` and leaves
 * its own in `inbox/`. Ramp never leaves a half-written file where the other side looks: it writes a hidden temporary
 * file, flushes it to disk and renames it into place, which is atomic on one file system.
 */
export function folderTransport(dir: string): BankTransport {
  for (const folder of FOLDERS) mkdirSync(join(dir, folder), { recursive: true });
  const at = (folder: (typeof FOLDERS)[number], name: string) => join(dir, folder, name);

  return {
    async send(file) {
      const temporary = at('outbox', `.${file.name}.${randomBytes(6).toString('hex')}.tmp`);
      const handle = await open(temporary, 'w');
      try {
        await handle.writeFile(file.content, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, at('outbox', file.name));
    },

    async received(limit) {
      // Hidden files are the other side's own files still being written.
      const names = (await readdir(join(dir, 'inbox'), { withFileTypes: true })).filter((entry) => entry.isFile() && !entry.name.startsWith('.'));
      const dated = await Promise.all(names.map(async (entry) => ({ name: entry.name, at: (await stat(at('inbox', entry.name))).mtimeMs })));
      dated.sort((a, b) => a.at - b.at || a.name.localeCompare(b.name));
      const files: BankFile[] = [];
      for (const { name } of dated.slice(0, limit)) files.push({ name, content: await readFile(at('inbox', name), 'utf8') });
      return files;
    },

    async processed(name) {
      await moveAside(dir, 'processed', name);
    },

    async rejected(name, reason) {
      const kept = await moveAside(dir, 'rejected', name);
      await writeFile(join(dir, 'rejected', `${kept}.reason`), `${reason}\n`, 'utf8');
    },
  };
}

/** Moves an inbox file into `folder`, under a new name if one of that name is there already (a file dropped twice). */
async function moveAside(dir: string, folder: 'processed' | 'rejected', name: string): Promise<string> {
  let kept = name;
  for (let attempt = 1; await exists(join(dir, folder, kept)); attempt++) kept = `${name}.${attempt}`;
  await rename(join(dir, 'inbox', name), join(dir, folder, kept));
  return kept;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
