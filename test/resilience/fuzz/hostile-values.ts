import fc from 'fast-check';

/** Values no well-behaved client sends, as fast-check arbitraries shared by the REST and GraphQL fuzzers. */

const controlCharacter = fc.constantFrom(
  '\u0000',
  '\u0001',
  '\u0007',
  '\u0008',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u2028',
  '\ufeff',
  '\ufffe',
  '\uffff',
);
const loneSurrogate = fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff');

/** Text with control characters, lone surrogates, odd Unicode, injection-looking and enormous strings. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: fc.oneof(controlCharacter, loneSurrogate, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 12 }),
  fc.tuple(fc.string({ maxLength: 8 }), fc.oneof(controlCharacter, loneSurrogate), fc.string({ maxLength: 8 })).map(([a, b, c]) => a + b + c),
  fc.constantFrom(
    '',
    ' ',
    '\t',
    '\n',
    'null',
    'undefined',
    "' or 1=1 --",
    '"; drop table customers; --',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell-style lookup, sent as a literal string on purpose
    '${jndi:ldap://x}',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '\\u0000',
    '🏦💸',
    'ＡＢＣ',
    'e\u0301',
  ),
  fc.integer({ min: 257, max: 20_000 }).map((n) => 'x'.repeat(n)),
);

/** Amounts and numbers a payments API must never read as a float or a surprise. */
export const hostileAmount: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '1e400',
    '1e-400',
    '-0',
    '0',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    ' 1',
    '1 ',
    '1_000',
    '1,5',
    '+1',
    '.5',
    '5.',
    '00001',
    '1.0000000000000000000001',
    '9'.repeat(60),
    '-100',
    '١٢٣',
    '1e3',
  ),
  fc.constantFrom(1e308, -1, 0, -0, 0.1, 2 ** 53 + 1, 1e21, Number.MIN_VALUE),
  fc.double().map(String),
  fc.bigInt().map(String),
);

const scalar: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileAmount, fc.boolean(), fc.constant(null), fc.integer(), fc.double());

/** Any JSON value with hostile leaves, a few levels deep. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.string({ maxLength: 10 })), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** JSON text nested `levels` deep (arrays or objects), to overflow any recursive reader. */
export const deepJson = (inner: string) =>
  fc
    .tuple(fc.integer({ min: 20, max: 6000 }), fc.boolean())
    .map(([levels, objects]) => (objects ? '{"a":'.repeat(levels) + inner + '}'.repeat(levels) : '['.repeat(levels) + inner + ']'.repeat(levels)));

/** Text that is not quite JSON. */
export const malformedJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '[',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    '{"a":01}',
    '{"a":NaN}',
    '{"a":Infinity}',
    'nul',
    'undefined',
    '\u0000',
    '{"a":"\u0000"}',
    '\ufeff{}',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '"just a string"',
    '42',
    'true',
    '[]',
  ),
  fc.string({ maxLength: 40 }),
  fc.json().map((text) => text.slice(0, Math.max(1, text.length - 1))),
);

export const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/graphql-response+json',
  'application/octet-stream',
  'application/json, text/plain',
  '*/*',
  'garbage',
  '',
);

/** Header values fetch can send (bytes ≤ 0xFF, no CR/LF/NUL); raw control characters go over a socket. */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
  fc.integer({ min: 256, max: 12_000 }).map((n) => 'k'.repeat(n)),
  fc.constantFrom('', ' ', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'rk_sandbox_', 'rk_live_x', `Bearer rk_sandbox_${'a'.repeat(64)}`),
);

/** Path segments for ids: real ones, unknown, over-long, badly encoded, traversal and control characters. */
export const hostileId = (real: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: real.length ? fc.constantFrom(...real) : fc.uuid(), weight: 3 },
    { arbitrary: fc.tuple(fc.uuid(), fc.boolean()).map(([id, upper]) => (upper ? id.toUpperCase() : id)), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        '%00',
        '%01abc',
        '%ff%fe',
        '%',
        '%zz',
        '..',
        '%2e%2e',
        '%2F',
        'a%0Ab',
        '%E2%80%AE',
        '-1',
        '0',
        '1e400',
        'NaN',
        'null',
        "'",
        '%27%20or%201%3D1',
      ),
      weight: 2,
    },
    { arbitrary: fc.integer({ min: 90, max: 400 }).map((n) => 'a'.repeat(n)), weight: 1 },
    { arbitrary: fc.string({ maxLength: 30 }).map(encodeURIComponent), weight: 2 },
  );
