import { z } from 'zod';
import { declarationOf } from '../../domain/validation.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../platform/use-cases/idempotency.js';

/**
 * The JSON Schemas the OpenAPI document shares between operations: the two error shapes (RFC 9457
 * problem+json for /v0, the Encryptus envelope for /v1 and /auth), the Encryptus success envelope,
 * and the headers every write takes.
 */
type JsonSchema = Record<string, unknown>;

/** The answers that get a name of their own in the document (`components.schemas`), each registered with `named`. */
export const answerSchemas = z.registry<{ id: string }>();
export const named = <T extends z.ZodType>(id: string, schema: T): T => {
  answerSchemas.add(schema, { id });
  return schema;
};

/**
 * JSON Schema 2020-12 (OpenAPI 3.1's dialect) of a zod schema, as it is read (`input`) or written
 * (`output`). Given `components`, named answers inside it become `$ref`s and their schemas go there.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', components?: Record<string, JsonSchema>): JsonSchema {
  const options = {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    ...(components ? { metadata: answerSchemas } : {}),
    ...(io === 'input' ? { override: declareRules } : {}),
  } as const;
  const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, options) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  const relinked = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
  for (const [id, definition] of Object.entries($defs ?? {})) if (components) components[id] = relinked(definition);
  return relinked(rest);
}

/**
 * Text Ramp accepts (domain/validation.ts refuses the rest in every body, query and header): no C0
 * control but tab, LF and CR, no DEL, U+FFFE, U+FFFF or lone surrogate; and, where text may not be
 * empty, something besides white space (text is trimmed before its length is checked).
 */
const REFUSED = String.raw`\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uD800-\uDFFF\uFFFE\uFFFF`;
export const TEXT_PATTERN = `^[^${REFUSED}]*$`;
export const NON_BLANK_TEXT_PATTERN = `^[^${REFUSED}]*[^\\s${REFUSED}][^${REFUSED}]*$`;

/** What a request schema states beyond zod's own conversion: the rules across fields its checks declared, and the text it refuses. */
function declareRules({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }) {
  // zod leaves out the examples of a schema that transforms what it reads; those of what JSON Schema cannot state are the client's valid values.
  const examples = z.globalRegistry.get(zodSchema as z.ZodType)?.examples;
  if (Array.isArray(examples) && !('examples' in jsonSchema)) jsonSchema.examples = examples;
  const rules = (zodSchema._zod.def.checks ?? []).flatMap((check) => declarationOf(check)?.((field) => field) ?? []);
  if (rules.length) jsonSchema.allOf = [...((jsonSchema.allOf as JsonSchema[] | undefined) ?? []), ...rules];
  const plainText = jsonSchema.type === 'string' && !('pattern' in jsonSchema || 'format' in jsonSchema || 'enum' in jsonSchema || 'const' in jsonSchema);
  if (plainText) jsonSchema.pattern = ((jsonSchema.minLength as number | undefined) ?? 0) > 0 ? NON_BLANK_TEXT_PATTERN : TEXT_PATTERN;
}

const FieldError = {
  type: 'object',
  required: ['pointer', 'code', 'detail'],
  additionalProperties: false,
  properties: {
    pointer: { type: 'string', description: 'JSON pointer into the body (`/email`), the query (`/limit`) or `/headers/idempotency-key`' },
    code: { type: 'string', examples: ['invalid_email'] },
    detail: { type: 'string' },
  },
};

export const COMPONENT_SCHEMAS: Record<string, JsonSchema> = {
  FieldError,
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem details; `type` is the absolute URL of the row of the code in the error table of the partner guide (/docs#<code>).',
    required: ['type', 'title', 'status', 'detail', 'code', 'request_id'],
    additionalProperties: false,
    properties: {
      type: { type: 'string', format: 'uri', examples: ['http://127.0.0.1:4000/docs#customer_email_taken'] },
      title: { type: 'string' },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string' },
      code: { type: 'string' },
      errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } },
      request_id: { type: 'string' },
      customer_id: { type: 'string', format: 'uuid', description: 'On `customer_email_taken`: the customer that already has this email' },
    },
  },
  EncryptusError: {
    type: 'object',
    description: "Encryptus's error envelope (/v1 and /auth); duplicates answer 400 `EN-STATE-004`, as Encryptus does.",
    required: ['success', 'status', 'code', 'message', 'data'],
    additionalProperties: false,
    properties: {
      success: { const: false },
      status: { type: 'integer' },
      code: { type: 'string', examples: ['EN-DATA-009'] },
      message: { type: 'string' },
      data: {
        type: 'object',
        required: ['error', 'detail', 'errors', 'request_id'],
        additionalProperties: false,
        properties: {
          error: { type: 'string' },
          detail: { type: 'string' },
          errors: { type: 'array', items: { $ref: '#/components/schemas/FieldError' } },
          request_id: { type: 'string' },
        },
      },
    },
  },
};

/** `{ success: true, status, code: "EN-SUCCESS-001", message, data }` around a /v1 or /auth answer. */
export const encryptusSuccessOf = <T extends z.ZodType>(data: T) =>
  z.strictObject({ success: z.literal(true), status: z.number().int(), code: z.literal('EN-SUCCESS-001'), message: z.string(), data });

/** The envelope's own fields: kept, with the ids under `data`, in what a change answers a key without `read`. */
export const ENVELOPE_FIELDS = ['success', 'status', 'code', 'message'] as const;

/** `{ items, has_more }`: one page of a REST list. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    items: z.array(item),
    has_more: z.boolean().meta({ description: 'true when the list goes on past this page: ask again with `skip` + `limit`' }),
  });

export const IDEMPOTENCY_KEY_DESCRIPTION =
  'A key of your choosing (an IETF structured-field string: `"…"`, or the bare value; 1–' +
  `${IDEMPOTENCY_KEY_MAX_LENGTH} characters). A repeat with the same key and request replays the first answer with ` +
  '`Idempotent-Replayed: true`; the same key with another request is 422 `idempotency_key_reused`. An empty key is 400.';

// Answer fields, described by format rather than by zod's long patterns (the document stays readable).
export const uuidAnswer = () => z.string().meta({ format: 'uuid' });
export const timestampAnswer = () => z.string().meta({ format: 'date-time', examples: ['2026-01-31T12:00:00.000Z'] });
/** Money on the wire: a decimal string at the asset's own scale, never a JSON number. */
export const amountAnswer = () =>
  z
    .string()
    .regex(/^[0-9]+(\.[0-9]+)?$/)
    .meta({ examples: ['100.00'] });
