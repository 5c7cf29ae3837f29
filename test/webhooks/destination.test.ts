import { describe, expect, it } from 'vitest';
import { isAllowedAddress, isPublicAddress, parseWebhookUrl, policyFor } from '../../src/modules/webhooks/destination.js';
import { delayBeforeNextAttempt, MAX_ATTEMPTS } from '../../src/modules/webhooks/retry-schedule.js';

describe('which addresses a production webhook may reach', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    '2001:db8::1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.215.14'])('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('requires public https for production keys and on a production deployment, and allows anything for sandbox keys elsewhere', () => {
    expect(policyFor('production', false)).toBe('public_https');
    expect(policyFor('sandbox', true)).toBe('public_https');
    expect(policyFor('sandbox', false)).toBe('loopback_or_public');
    expect(() => parseWebhookUrl('http://example.com/hooks', 'public_https')).toThrow();
    expect(parseWebhookUrl('http://127.0.0.1:3000/hooks', 'loopback_or_public').href).toBe('http://127.0.0.1:3000/hooks');
  });
});

describe('the retry schedule', () => {
  it('waits 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up', () => {
    const delays = Array.from({ length: MAX_ATTEMPTS + 1 }, (_, made) => delayBeforeNextAttempt(made, 1));
    expect(delays).toEqual([0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, null]);
  });

  it('scales with WEBHOOK_RETRY_TIME_SCALE', () => {
    expect(delayBeforeNextAttempt(2, 0.001)).toBe(300);
  });
});

describe('the sandbox policy on a development deployment', () => {
  it('allows this machine and public addresses, but no private or link-local network', () => {
    for (const address of ['127.0.0.1', '::1', '8.8.8.8']) expect(isAllowedAddress(address, 'loopback_or_public'), address).toBe(true);
    for (const address of ['10.0.0.5', '192.168.1.1', '172.16.0.1', '169.254.169.254', 'fe80::1', '100.64.0.1']) {
      expect(isAllowedAddress(address, 'loopback_or_public'), address).toBe(false);
    }
    expect(isAllowedAddress('127.0.0.1', 'public_https')).toBe(false);
  });
});
