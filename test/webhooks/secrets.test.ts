import { createCipheriv, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { resealSigningSecrets } from '../../src/modules/webhooks/jobs.js';
import { newSigningSecret, signDelivery, signingSecrets, signingSecretsOf } from '../../src/modules/webhooks/secrets.js';
import { masterKeyOf, masterKeyring } from '../../src/platform/security/sealing.js';
import { startRamp, type TestRamp } from '../support/ramp.js';
import { startReceiver, waitFor } from '../support/clients/webhook-receiver.js';

const key = randomBytes(32);
const master = randomBytes(32);
const endpoint = '5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e';

/** A secret as Ramp stored it before secrets joined the one codec: `v1:` and base64 of iv, tag, ciphertext under WEBHOOK_SECRET_KEY. */
function earlierFormat(legacyKey: Buffer, endpointId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', legacyKey, iv);
  cipher.setAAD(Buffer.from(endpointId));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
}

let t: TestRamp;
beforeAll(async () => {
  t = await startRamp({ WEBHOOK_RETRY_TIME_SCALE: '0.001' });
});
afterAll(() => t.close());

describe('webhook signing secrets at rest', () => {
  it('are sealed by the master key with the one codec (v1:<master key id>:…), never in clear', () => {
    const secrets = signingSecrets(masterKeyring(master), key);
    const secret = newSigningSecret();
    const stored = secrets.seal(endpoint, secret);
    expect(stored.startsWith(`v1:${masterKeyOf(master).id}:`)).toBe(true);
    expect(stored).not.toContain(secret.slice(6));
    expect(secrets.open(endpoint, stored)).toBe(secret);
    expect(secrets.isCurrent(stored)).toBe(true);
  });

  it('refuses a sealed secret that was altered, moved to another endpoint, or read with another master key', () => {
    const secrets = signingSecrets(masterKeyring(master), key);
    const stored = secrets.seal(endpoint, newSigningSecret());
    const parts = stored.split(':');
    const raw = Buffer.from(parts[4]!, 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => secrets.open(endpoint, [...parts.slice(0, 4), raw.toString('base64')].join(':'))).toThrow();
    expect(() => secrets.open('00000000-0000-4000-8000-000000000000', stored)).toThrow();
    expect(() => signingSecrets(masterKeyring(randomBytes(32)), key).open(endpoint, stored)).toThrow(/not configured/);
  });

  it('still opens a secret stored in the earlier format, which is not current', () => {
    const secrets = signingSecrets(masterKeyring(master), key);
    const secret = newSigningSecret();
    const stored = earlierFormat(key, endpoint, secret);
    expect(secrets.open(endpoint, stored)).toBe(secret);
    expect(secrets.isCurrent(stored)).toBe(false);
  });

  it('re-seals secrets of the earlier format at the next job run, and a master key rotation re-seals them all; deliveries still verify', async () => {
    const receiver = await startReceiver();
    try {
      const api = t.client(t.key);
      const registered = await api.post('/v0/webhooks', { url: receiver.url });
      expect(registered.status).toBe(201);
      const { id, secret } = registered.body as { id: string; secret: string };
      const config = loadConfig({ NODE_ENV: 'test' });
      const currentPrefix = `v1:${masterKeyOf(config.encryptionMasterKey).id}:`;
      const [stored] = await t.sql<{ secret_encrypted: string }>('select secret_encrypted from webhook_endpoints where id = ?', [id]);
      expect(stored!.secret_encrypted.startsWith(currentPrefix)).toBe(true);

      // An endpoint from before: its secret in the earlier format, under WEBHOOK_SECRET_KEY. The job re-seals it.
      await t.sql('update webhook_endpoints set secret_encrypted = ? where id = ?', [earlierFormat(config.webhookSecretKey, id, secret), id]);
      await t.ramp.jobs.runOnce();
      const [resealed] = await t.sql<{ secret_encrypted: string }>('select secret_encrypted from webhook_endpoints where id = ?', [id]);
      expect(resealed!.secret_encrypted.startsWith(currentPrefix)).toBe(true);

      // A rotation: everything the old master key sealed is re-sealed by the new one, and opens with it alone.
      const next = randomBytes(32);
      const rotating = signingSecretsOf({ ...config, encryptionMasterKey: next, previousEncryptionMasterKey: config.encryptionMasterKey });
      while ((await resealSigningSecrets(t.ramp.db.fork(), rotating)) > 0);
      const rows = await t.sql<{ id: string; secret_encrypted: string }>('select id, secret_encrypted from webhook_endpoints');
      expect(rows.every((r) => r.secret_encrypted.startsWith(`v1:${masterKeyOf(next).id}:`))).toBe(true);
      const mine = rows.find((r) => r.id === id)!;
      expect(signingSecretsOf({ ...config, encryptionMasterKey: next, previousEncryptionMasterKey: null }).open(id, mine.secret_encrypted)).toBe(secret);
      // Back to the key the running Ramp uses; a delivery is signed with the secret the partner holds.
      const back = signingSecretsOf({ ...config, previousEncryptionMasterKey: next });
      while ((await resealSigningSecrets(t.ramp.db.fork(), back)) > 0);
      expect(
        (
          await api.post('/v0/customers', {
            email: `sealed.${randomBytes(3).toString('hex')}@example.com`,
            type: 'individual',
            first_name: 'A',
            last_name: 'B',
          })
        ).status,
      ).toBe(201);
      const delivered = await waitFor(() => receiver.received.find((r) => r.json?.event_type === 'customer.created'));
      expect(new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>)).toBeTruthy();
    } finally {
      await receiver.close();
    }
  });

  it('requires WEBHOOK_SECRET_KEY in production and accepts only 32 bytes', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/WEBHOOK_SECRET_KEY is required/);
    expect(() => loadConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: randomBytes(16).toString('base64') })).toThrow(/32 bytes/);
    const config = loadConfig({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: key.toString('base64'), ENCRYPTION_MASTER_KEY: key.toString('base64') });
    expect(config.webhookSecretKey.equals(key)).toBe(true);
    expect(config.webhookSecretKeyIsDevelopmentKey).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).webhookSecretKeyIsDevelopmentKey).toBe(true);
  });
});

describe('signatures', () => {
  it('signs with every secret in force, each verifiable with standardwebhooks', () => {
    const current = newSigningSecret();
    const previous = newSigningSecret();
    const body = JSON.stringify({ event_id: 'e1', event_type: 'customer.created' });
    const headers = signDelivery([current, previous], 'e1', new Date(), body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow();
  });
});
