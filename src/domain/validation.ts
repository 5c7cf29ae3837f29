import { z } from 'zod';
import { type FieldError, ValidationError, fieldError } from './errors.js';

/** JSON pointer (RFC 6901) for a zod issue path. */
export function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/** Pointer renames for one face: a domain pointer prefix → the face's own (`/taxNumber` → `/identifying_information/tax_number`). */
export type PointerRenames = Readonly<Record<string, string>>;

/** `pointer` with its longest renamed prefix replaced: `[face's prefix, the rest]` (prefix '' when none applies). */
export function renamedPointer(pointer: string, renames: PointerRenames): [string, string] {
  const prefix = Object.keys(renames)
    .filter((p) => pointer === p || pointer.startsWith(`${p}/`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? ['', pointer] : [renames[prefix]!, pointer.slice(prefix.length)];
}

type Issue = z.core.$ZodIssue | z.core.$ZodRawIssue;

const isMissing = (issue: Issue) => (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined;

function codeOf(issue: z.core.$ZodIssue): string {
  if (isMissing(issue)) return 'required';
  if (issue.code === 'invalid_value') return 'invalid_enum_value';
  if (issue.code === 'invalid_format') return `invalid_${issue.format}`;
  if (issue.code === 'custom' && typeof issue.params?.code === 'string') return issue.params.code;
  return issue.code;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  date: 'a date',
  bigint: 'a whole number',
};
const FORMAT_NAMES: Record<string, string> = {
  email: 'a valid email address',
  url: 'a valid URL',
  uuid: 'a UUID',
  datetime: 'an ISO 8601 date and time',
  date: 'a date written YYYY-MM-DD',
};
const plural = (n: number | bigint, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How a size limit reads for what was measured: characters of a string, items of a list, a number. */
function bound(issue: { origin: string; inclusive?: boolean; exact?: boolean }, limit: number | bigint, side: 'least' | 'most'): string {
  if (issue.origin === 'string') return `must be ${issue.exact ? 'exactly' : `at ${side}`} ${plural(limit, 'character')} long`;
  if (issue.origin === 'array' || issue.origin === 'set') return `must have ${issue.exact ? 'exactly' : `at ${side}`} ${plural(limit, 'item')}`;
  if (issue.inclusive === false) return `must be ${side === 'least' ? 'greater' : 'less'} than ${limit}`;
  return `must be at ${side} ${limit}`;
}

/**
 * Ramp's sentence for each kind of zod issue, in place of zod's own ("Too small: expected …").
 * A detail follows its field's pointer ("/email must be …") and never quotes the input.
 * Messages a schema gives itself take precedence; this covers the rest.
 */
export function detailOf(issue: Issue): string {
  if (isMissing(issue)) return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of: ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return bound(issue, issue.minimum, 'least');
    case 'too_big':
      return bound(issue, issue.maximum, 'most');
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected format' : `must be ${FORMAT_NAMES[issue.format] ?? `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return 'is not a known field';
    case 'invalid_union':
      return 'does not match any accepted shape';
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has a value that is not allowed';
    default:
      return 'is invalid';
  }
}

/** zod's issues as Ramp's field errors: stable codes, Ramp's sentences, one error per unknown field. */
export function fieldErrorsOf(issues: readonly z.core.$ZodIssue[], base: readonly PropertyKey[] = []): FieldError[] {
  return issues.flatMap((issue) =>
    // One error per unknown field, pointing at it, rather than one for the object holding them.
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => fieldError(pointerOf([...base, ...issue.path, key]), 'unrecognized_keys', 'is not a known field'))
      : [fieldError(pointerOf([...base, ...issue.path]), codeOf(issue), isMissing(issue) ? 'is required' : issue.message)],
  );
}

/** Every problem of untrusted input as field errors (none when it is valid), and the parsed value. */
export function checkInput<S extends z.ZodType>(schema: S, input: unknown): { data?: z.infer<S>; errors: FieldError[] } {
  // reportInput lets us tell a missing field from a wrong type; the input itself is never echoed back.
  const result = schema.safeParse(input, { reportInput: true, error: detailOf });
  return result.success ? { data: result.data, errors: [] } : { errors: fieldErrorsOf(result.error.issues) };
}

/**
 * Parses untrusted input with a zod schema, turning every problem into a field error with a
 * stable code, so REST and GraphQL report the same failures the same way. Rules across fields
 * declared with `acrossFields` run even when some fields failed, so one answer lists them all.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const { data, errors } = checkInput(schema, input);
  if (errors.length) throw new ValidationError(errors);
  return data as z.infer<S>;
}

/** Why a value is refused: a stable code and Ramp's sentence. */
export type Problem = Pick<FieldError, 'code' | 'detail'>;

/** A rule of the domain on one field as a zod refinement: `problemOf` says why a value is refused, or null. */
export function refusing<T>(problemOf: (value: T) => Problem | null) {
  return (value: T, ctx: z.RefinementCtx<T>) => {
    const problem = problemOf(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.detail, params: { code: problem.code } });
  };
}

/** For rules across fields, which read fields that may have failed: is `value` one of `values`? */
export const isOneOf = <const T extends readonly string[]>(values: T, value: unknown): value is T[number] =>
  typeof value === 'string' && values.includes(value);

/** Reports one problem of a rule: the field it concerns (relative to the object checked), a stable code, a sentence. */
export type Report = (path: string | readonly PropertyKey[], code: string, detail: string) => void;

/**
 * A rule across the fields of an object (mutually exclusive fields, required for a type, rails
 * of a currency). zod skips refinements once any field failed, which made clients find problems
 * one request at a time; these run whenever the input is an object. The rule therefore sees the
 * body as sent where a field failed (parsed where it passed): it must check what it reads.
 * A field check with `abort: true` stops these rules too (zod's rule), so objects with them avoid it.
 */
export function acrossFields<T>(rule: Rule, declared?: Declared): z.core.$ZodCheck<T> {
  const check = z.superRefine<T>(
    (body, ctx) =>
      rule(
        body as Record<string, unknown>,
        (path, code, detail) => ctx.addIssue({ code: 'custom', path: typeof path === 'string' ? [path] : [...path], message: detail, params: { code } }),
        (field) => field,
      ),
    { when: ({ value }) => typeof value === 'object' && value !== null && !Array.isArray(value) },
  );
  rules.set(check, rule);
  if (declared) declarations.set(check, declared);
  return check;
}

/**
 * What a rule across fields enforces, in JSON Schema 2020-12 (OpenAPI 3.1's dialect: `oneOf`,
 * `if`/`then`, `dependentRequired`…), with the fields named as `name` spells them. Declared beside
 * the rule, so the REST contract states every rule a client must keep (the OpenAPI document adds
 * it to the body's schema); a schema-valid request the rule refuses is caught by
 * test/rest/openapi-requests.test.ts.
 */
export type Declared = (name: (field: string) => string) => JsonSchema;
export type JsonSchema = { [keyword: string]: unknown };
const declarations = new WeakMap<object, Declared>();

/** The JSON Schema an acrossFields check declared (undefined for any other check). */
export const declarationOf = (check: object): Declared | undefined => declarations.get(check);

/**
 * An absolute http(s) URL without credentials or a #fragment (webhook and redirect URLs), as a pattern for the REST
 * contract, no wider than what a URL parser takes (WHATWG's, as the server checks): a host name of letter-and-digit
 * labels whose last label starts with a letter (a numeric one is read as an IPv4 address: `https://a..9` is none), or
 * a dotted IPv4 address; then an optional port 0–65535 (`https://x:p` has none), then a path or query. Narrower than
 * the server on purpose: a punycode (`xn--`) host is taken by the server but not declared, since which of them a
 * parser accepts is IDNA's to say.
 */
const PORT = '(?:[0-9]{0,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const LABEL = '[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*';
const HOST = `(?:(?:${LABEL}\\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*|(?:${OCTET}\\.){3}${OCTET})`;
export const HTTP_URL_PATTERN = `^https?://${HOST}(?::${PORT})?(?:[/?][^\\s#]*)?$`;

/** Exactly one of two fields. */
export const exactlyOne = (a: string, b: string): JsonSchema => ({
  oneOf: [
    { required: [a], not: { required: [b] } },
    { required: [b], not: { required: [a] } },
  ],
});

/** When `condition` holds, `then` does (JSON Schema's `if`/`then`). */
export const when = (condition: JsonSchema, then: JsonSchema): JsonSchema => ({ if: condition, then });

/** When `field` is one of `values` (and present), `then` holds. */
export const whenOneOf = (field: string, values: readonly unknown[], then: JsonSchema): JsonSchema => ({
  if: { properties: { [field]: { enum: [...values] } }, required: [field] },
  then,
});

/** Fields present and not null (a REST body's optional fields may be null, which means absent). */
export const present = (fields: readonly string[]): JsonSchema => ({
  required: [...fields],
  properties: Object.fromEntries(fields.map((f) => [f, { not: { type: 'null' } }])),
});

/** Fields absent or null. */
export const absent = (fields: readonly string[]): JsonSchema => ({ properties: Object.fromEntries(fields.map((f) => [f, { type: 'null' }])) });

/**
 * A rule across the fields of an object, as acrossFields runs it. It reads and reports fields by
 * their domain names; a sentence that names a field spells it with `name` (a face may spell it otherwise).
 */
export type Rule = (body: Readonly<Record<string, unknown>>, report: Report, name: (field: string) => string) => void;
const rules = new WeakMap<object, Rule>();

/** The rule an acrossFields check runs (undefined for any other check), so a face that spells the fields its own way can run it too. */
export const ruleOf = (check: object): Rule | undefined => rules.get(check);

/** How deeply a JSON body or GraphQL variables may nest; Ramp's own inputs need 4. */
export const MAX_JSON_DEPTH = 32;

/**
 * Characters no text input may hold: C0 controls except tab, LF and CR (PostgreSQL refuses NUL;
 * the rest only hide text from people and logs), DEL, the noncharacters U+FFFE and U+FFFF.
 * Lone surrogates are refused too: they cannot be stored as UTF-8.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose
const REFUSED_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isAcceptableText = (text: string) => !REFUSED_CHARACTER.test(text);

export const refusedTextError = (pointer: string) =>
  fieldError(
    pointer,
    'invalid_characters',
    'must not contain control characters (except tab, line feed and carriage return), U+FFFE, U+FFFF or lone surrogates',
  );

/** The deepest nesting of arrays and objects in JSON text, counted without parsing it. */
export function jsonNestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

const MAX_REPORTED = 20;

/**
 * Every refused text in a parsed JSON value, keys included, as field errors pointing at it; one
 * `too_deep` error when it nests deeper than MAX_JSON_DEPTH. Iterative, so no input can exhaust the stack.
 */
export function refusedTextIn(value: unknown, base = ''): FieldError[] {
  const errors: FieldError[] = [];
  const pending: Array<[unknown, string, number]> = [[value, base, 0]];
  while (pending.length && errors.length < MAX_REPORTED) {
    const [item, pointer, depth] = pending.pop()!;
    if (typeof item === 'string') {
      if (!isAcceptableText(item)) errors.push(refusedTextError(pointer));
    } else if (item !== null && typeof item === 'object') {
      if (depth >= MAX_JSON_DEPTH) {
        errors.push(fieldError(pointer, 'too_deep', `must not nest deeper than ${MAX_JSON_DEPTH} levels`));
        continue;
      }
      for (const [key, child] of Object.entries(item)) {
        const childPointer = pointer + pointerOf([key]);
        if (!isAcceptableText(key)) errors.push(refusedTextError(childPointer));
        else pending.push([child, childPointer, depth + 1]);
      }
    }
  }
  return errors;
}
