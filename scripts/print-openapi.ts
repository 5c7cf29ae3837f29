import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRamp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

/**
 * Writes openapi.json: the document GET /openapi.json serves, gathered from the routes' contracts
 * (the committed copy must match; a test checks it and CI runs this then `git diff`). Ramp starts on
 * an in-memory database without listening, so the document is the one the real app registers.
 */
export async function printedOpenApi(): Promise<string> {
  const ramp = await createRamp(loadConfig({ NODE_ENV: 'test', DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'silent' }));
  try {
    await ramp.http.app.ready();
    return `${JSON.stringify(ramp.http.openApi.document(), null, 2)}\n`;
  } finally {
    await ramp.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
  writeFileSync(target, await printedOpenApi());
  // In the repository's own JSON style, so `npm run lint` (Biome) passes over the committed file.
  execFileSync(fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url)), ['format', '--write', target], { stdio: 'ignore' });
  process.stdout.write('openapi.json written\n');
}
