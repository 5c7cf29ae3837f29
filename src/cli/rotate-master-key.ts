// First, before any dependency loads: refuses a Node too old for them in one sentence.
import '../platform/runtime/supported-node.js';
import { loadConfig } from '../config.js';
import { entities } from '../features.js';
import { createDataKeys } from '../modules/customers/data-keys.js';
import { resealSigningSecrets } from '../modules/webhooks/jobs.js';
import { signingSecretsOf } from '../modules/webhooks/secrets.js';
import { openDatabase } from '../platform/db/database.js';
import { Refusal, exitIfRefused } from '../refusal.js';

/**
 * `npm run keys:rotate-master`: re-wraps every customer data key that ENCRYPTION_PREVIOUS_MASTER_KEY
 * wrapped with ENCRYPTION_MASTER_KEY, and re-seals every webhook signing secret it sealed, on the server's database (docs/operations/security.md, "The master
 * key and its rotation"). Running instances started with both keys do the same in the background; this
 * finishes it now and says when the previous key can go.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  if (!config.previousEncryptionMasterKey) {
    throw new Refusal('Set ENCRYPTION_PREVIOUS_MASTER_KEY to the key being replaced and ENCRYPTION_MASTER_KEY to the new one, then run this again.');
  }
  const dataKeys = createDataKeys({ current: config.encryptionMasterKey, previous: config.previousEncryptionMasterKey });
  const db = await openDatabase({ ...config, entities, debug: false });
  try {
    let total = 0;
    for (let batch = await dataKeys.rewrap(db.fork(), 500); batch > 0; batch = await dataKeys.rewrap(db.fork(), 500)) total += batch;
    const secrets = signingSecretsOf(config);
    let resealed = 0;
    for (let batch = await resealSigningSecrets(db.fork(), secrets, 500); batch > 0; batch = await resealSigningSecrets(db.fork(), secrets, 500))
      resealed += batch;
    process.stdout.write(
      `Re-wrapped ${total} customer data keys and re-sealed ${resealed} webhook signing secrets with the new master key; ENCRYPTION_PREVIOUS_MASTER_KEY can now be removed.\n`,
    );
    return 0;
  } finally {
    await db.close();
  }
}

process.exitCode = await main().catch(exitIfRefused);
