import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { decryptSecret, encryptSecret, newSigningSecret, signDelivery } from '../../src/modules/webhooks/secrets.js';

const key = randomBytes(32);
const endpoint = '5b0f3c56-3c0e-4f7e-9d0e-1f2a3b4c5d6e';

describe('webhook signing secrets at rest', () => {
  it('round-trips through AES-256-GCM and never stores the secret in clear', () => {
    const secret = newSigningSecret();
    const stored = encryptSecret(key, endpoint, secret);
    expect(stored).not.toContain(secret.slice(6));
    expect(decryptSecret(key, endpoint, stored)).toBe(secret);
  });

  it('refuses a ciphertext that was altered, moved to another endpoint, or read with another key', () => {
    const stored = encryptSecret(key, endpoint, newSigningSecret());
    const raw = Buffer.from(stored.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => decryptSecret(key, endpoint, `v1:${raw.toString('base64')}`)).toThrow();
    expect(() => decryptSecret(key, '00000000-0000-4000-8000-000000000000', stored)).toThrow();
    expect(() => decryptSecret(randomBytes(32), endpoint, stored)).toThrow();
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
