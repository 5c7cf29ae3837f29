import { z } from 'zod';
import { type Declared, acrossFields, declarationOf, type Rule, ruleOf } from '../domain/validation.js';

/** `taxNumber` → `tax_number`, `streetLine1` → `street_line_1`; array indexes stay as they are. */
export const snakeCaseOf = (segment: string) => segment.replace(/([a-z])(?=[A-Z0-9])/g, '$1_').toLowerCase();
const camelCaseOf = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The REST body of a use case whose input it only snake-cases: the input's own field rules under
 * the spec's snake_case keys (nested objects too), and its rules across fields, which read the body
 * in the domain's words and point into it in snake_case. The body's own optional fields may also be
 * null (JSON clients send null for "none"); nested objects keep the domain's. It parses into the use
 * case's input, so nothing re-lists the fields, and the OpenAPI document shows the body as sent.
 */
export function restBodyOf<S extends z.ZodObject>(input: S): z.ZodType<z.input<S>> {
  return snakeCased(input, true).transform((body) => camelCased(body) as z.input<S>);
}

function snakeCased(object: z.ZodObject, nullable: boolean): z.ZodObject {
  const shape = Object.fromEntries(Object.entries(object.shape).map(([key, field]) => [snakeCaseOf(key), snakeCasedField(field, nullable)]));
  const checks = (object.def.checks ?? []).map((check) => {
    const rule = ruleOf(check);
    // A check that is not a rule across fields cannot be told the body's spelling.
    if (!rule) throw new Error('restBodyOf: an input object may carry only acrossFields rules');
    const declared = declarationOf(check);
    return acrossFields(inDomainWords(rule), declared && inBodyWords(declared));
  });
  const body = object.def.catchall ? z.object(shape).catchall(object.def.catchall) : z.object(shape);
  const checked = checks.length ? body.check(...checks) : body;
  // The object's own metadata (examples of what JSON Schema cannot state) in the body's spelling.
  const meta = z.globalRegistry.get(object);
  return meta ? checked.meta({ ...meta, ...(Array.isArray(meta.examples) && { examples: meta.examples.map(snakeCasedKeys) }) }) : checked;
}

/** `{ ibanNumber: … }` → `{ iban_number: … }`, at any depth. */
function snakeCasedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCasedKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [snakeCaseOf(key), snakeCasedKeys(v)]));
}

function snakeCasedField(field: z.core.$ZodType, nullable: boolean): z.ZodType {
  if (field instanceof z.ZodOptional) {
    const inner = field.unwrap();
    const spelled = inner instanceof z.ZodObject ? snakeCased(inner, false) : (inner as z.ZodType);
    return nullable ? spelled.nullish() : spelled.optional();
  }
  return field instanceof z.ZodObject ? snakeCased(field, false) : (field as z.ZodType);
}

/** A rule of the domain run on a snake_case body: it reads the fields by their domain names, and its paths are the body's. */
const inDomainWords =
  (rule: Rule): Rule =>
  (body, report) =>
    rule(
      Object.fromEntries(Object.entries(body).map(([key, value]) => [camelCaseOf(key), value])),
      (path, code, detail) =>
        report(typeof path === 'string' ? snakeCaseOf(path) : path.map((p) => (typeof p === 'string' ? snakeCaseOf(p) : p)), code, detail),
      snakeCaseOf,
    );

/** A rule's JSON Schema with the body's field names. */
const inBodyWords =
  (declared: Declared): Declared =>
  (name) =>
    declared((field) => name(snakeCaseOf(field)));

/** A parsed body in the domain's words: camelCase keys at any depth, null as absent (the use cases know only undefined). */
function camelCased(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.map(camelCased);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [camelCaseOf(key), camelCased(v)]));
}
