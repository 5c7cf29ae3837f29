import { createClient } from 'graphql-ws';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { issueApiKey } from '../../src/modules/partners/api-keys.js';
import { ensurePartner } from '../../src/modules/partners/service.js';
import { parseAddressRange } from '../../src/domain/identifiers/address-range.js';
import { addressAllowlist } from '../../src/platform/security/client-address.js';
import { startRamp, type TestRamp } from '../support/ramp.js';

/*
 * Loopback is all of 127.0.0.0/8 on Linux: a client socket bound to 127.0.0.2 reaches Ramp on
 * 127.0.0.1 and Ramp sees it come from 127.0.0.2, so "another address" needs no second machine.
 */

interface Answer {
  status: number;
  body: any;
}

/** A request whose socket is bound to `from`, so Ramp sees it come from there. */
function send(from: string, url: string, path: string, key: string, options: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      `${url}${path}`,
      {
        method: options.method ?? 'GET',
        localAddress: from,
        headers: { authorization: `Bearer ${key}`, ...(body && { 'content-type': 'application/json' }), ...options.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Connects over graphql-ws from `from` (with `headers` on the upgrade request) and resolves how the connection went. */
function connectFrom(from: string, url: string, key: string, headers: Record<string, string> = {}): Promise<'connected' | number> {
  class BoundWebSocket extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { localAddress: from, headers });
    }
  }
  return new Promise((resolve) => {
    const client = createClient({
      url: `${url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: BoundWebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
      lazy: false,
      on: {
        connected: () => {
          resolve('connected');
          void client.dispose();
        },
        closed: (event) => resolve((event as { code: number }).code),
      },
      onNonLazyError: () => undefined,
    });
  });
}

async function keyAllowedFrom(t: TestRamp, allowedIps: string[]): Promise<string> {
  const em = t.ramp.db.fork();
  const { partner } = await ensurePartner(em, `Allowlisted Partner ${allowedIps.join(' ')}`);
  return issueApiKey(em, partner, 'sandbox', { allowedIps });
}

describe('an API key allowed only from 127.0.0.1', () => {
  let t: TestRamp;
  let key: string;
  beforeAll(async () => {
    t = await startRamp();
    key = await keyAllowedFrom(t, ['127.0.0.1']);
  });
  afterAll(() => t?.close());

  it('answers 200 from 127.0.0.1 and 403 ip_not_allowed from 127.0.0.2, verified key kept or not', async () => {
    for (let round = 0; round < 2; round++) {
      expect((await send('127.0.0.1', t.url, '/v0/customers', key)).status).toBe(200);
      const refused = await send('127.0.0.2', t.url, '/v0/customers', key);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'ip_not_allowed', status: 403 });
      expect(refused.body.detail).toContain('127.0.0.2');
    }
  });

  it('refuses GraphQL over HTTP and graphql-ws from 127.0.0.2 too', async () => {
    const query = { query: '{ customers(first: 1) { totalCount } }' };
    const allowed = await send('127.0.0.1', t.url, '/graphql', key, { method: 'POST', body: query });
    expect(allowed.body.errors).toBeUndefined();
    const refused = await send('127.0.0.2', t.url, '/graphql', key, { method: 'POST', body: query });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].extensions.code).toBe('IP_NOT_ALLOWED');

    expect(await connectFrom('127.0.0.1', t.url, key)).toBe('connected');
    expect(await connectFrom('127.0.0.2', t.url, key)).toBe(4403);
  });

  it('keeps an allowlist of ranges, IPv4 and IPv6, and reads IPv4 clients of a dual-stack socket as IPv4', () => {
    const allows = addressAllowlist(['10.0.0.0/8', '2001:db8::/32', '::1']);
    expect([allows('10.1.2.3'), allows('::ffff:10.1.2.3'), allows('2001:db8::7'), allows('::1')]).toEqual([true, true, true, true]);
    expect([allows('11.0.0.1'), allows('2001:db9::1'), allows(undefined), allows('not an address')]).toEqual([false, false, false, false]);
    expect(parseAddressRange('10.0.0.0/33')).toBeNull();
    expect(parseAddressRange('::1/128')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
  });
});

describe('TRUST_PROXY', () => {
  let t: TestRamp;
  let key: string;
  beforeAll(async () => {
    t = await startRamp({ TRUST_PROXY: '127.0.0.2' });
    // The client's address as the proxy tells it; the proxy's own address is not allowed.
    key = await keyAllowedFrom(t, ['203.0.113.7']);
  });
  afterAll(() => t?.close());

  it('reads the client from X-Forwarded-For only when the named proxy sent the request', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.7' };
    expect((await send('127.0.0.2', t.url, '/v0/customers', key, { headers: forwarded })).status).toBe(200);
    // Anyone else sending the header is the client itself.
    const spoofed = await send('127.0.0.1', t.url, '/v0/customers', key, { headers: forwarded });
    expect(spoofed.status).toBe(403);
    expect(spoofed.body.detail).toContain('127.0.0.1');
    // The proxy without the header is the client itself.
    expect((await send('127.0.0.2', t.url, '/v0/customers', key)).body).toMatchObject({ code: 'ip_not_allowed' });
    // Hops before the proxy are read only while each one is trusted: 203.0.113.7 → 198.51.100.1 (untrusted) → proxy.
    const chained = await send('127.0.0.2', t.url, '/v0/customers', key, { headers: { 'x-forwarded-for': '203.0.113.7, 198.51.100.1' } });
    expect(chained.body.detail).toContain('198.51.100.1');
  });

  it('reads the graphql-ws upgrade request the same way', async () => {
    expect(await connectFrom('127.0.0.2', t.url, key, { 'x-forwarded-for': '203.0.113.7' })).toBe('connected');
    expect(await connectFrom('127.0.0.1', t.url, key, { 'x-forwarded-for': '203.0.113.7' })).toBe(4403);
  });
});
