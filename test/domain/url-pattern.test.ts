import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HTTP_URL_PATTERN } from '../../src/domain/validation.js';

/**
 * The REST contract declares webhook and redirect URLs by HTTP_URL_PATTERN; the server checks them with the WHATWG
 * URL parser. A value the pattern takes and the parser refuses is a schema-valid request answered 400, which
 * test/rest/openapi-requests.test.ts finds only on the seeds that draw it (`https://x:p`, `https://a..9`).
 * Here every drawn value is parsed.
 */
describe('HTTP_URL_PATTERN', () => {
  const pattern = new RegExp(HTTP_URL_PATTERN, 'u');

  it('takes only what the URL parser takes, without credentials or a fragment', () => {
    fc.assert(
      fc.property(fc.stringMatching(pattern, { size: 'small' }), (value) => {
        const url = new URL(value);
        expect([url.protocol === 'https:' || url.protocol === 'http:', url.username, url.password, url.hash]).toEqual([true, '', '', '']);
      }),
      { numRuns: 20_000 },
    );
  });

  it('takes the URLs partners register, and none the server refuses', () => {
    const taken = ['https://example.com/hooks/ramp', 'https://hooks.example.co.uk:8443/r?x=1', 'http://127.0.0.1:3000/webhook', 'https://localhost'];
    const refused = ['https://x:p', 'https://a..9:05', 'https://999.1.1.1/', 'https://user:pw@example.com/', 'https://example.com/#top', 'ftp://example.com/'];
    expect(taken.filter((url) => !pattern.test(url))).toEqual([]);
    expect(refused.filter((url) => pattern.test(url))).toEqual([]);
  });
});
