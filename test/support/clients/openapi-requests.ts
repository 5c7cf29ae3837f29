import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Requests generated from openapi.json alone, as a client generated from it would send them: every
 * parameter and body is drawn from its JSON Schema (types, enums, bounds, formats, patterns and the
 * conditional rules: `if`/`then`/`else`, `oneOf`, `dependentRequired`), then checked against that
 * schema with Ajv, so only schema-valid requests are sent. Nothing here knows Ramp's own rules: a
 * request the server refuses as validation_failed is a rule the document does not declare. A value
 * whose schema says `x-ramp-checks` (check digits, a registry: nothing JSON Schema can state) is
 * drawn from the schema's `examples`; a refusal at a field whose schema (or a schema holding it)
 * says `x-ramp-checks` is a rule the document declares in words (`declaresCheckAt`).
 */

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  if?: Schema;
  then?: Schema;
  else?: Schema;
  not?: Schema;
  properties?: Record<string, Schema | boolean>;
  required?: string[];
  dependentRequired?: Record<string, string[]>;
  items?: Schema;
  examples?: unknown[];
};

export interface DocumentedOperation {
  method: string;
  /** As the document writes it, `{customer_id}` placeholders and all. */
  path: string;
  operationId: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema: Schema; example?: unknown }>;
  body?: { required: boolean; schema: Schema; example?: unknown };
}

export interface GeneratedRequest {
  operationId: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

type OpenApi = any;

/** Every operation of the document with its parameters and JSON request body. */
export function operationsOf(document: OpenApi): DocumentedOperation[] {
  const operations: DocumentedOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, OpenApi>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const media = operation.requestBody?.content?.['application/json'];
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: operation.operationId,
        parameters: operation.parameters ?? [],
        ...(media ? { body: { required: operation.requestBody.required === true, schema: media.schema, example: media.example } } : {}),
      });
    }
  }
  return operations;
}

/**
 * Whether the document declares a rule in words (`x-ramp-checks`) at `pointer` of a request to `operation`, or at a schema
 * that holds it (an object whose fields' rules depend on stored state): a body field (`/destination_bank_account/account_type`),
 * a query parameter (`/cursor`) or a header (`/headers/idempotency-key`). Branches (`allOf`, `anyOf`, `oneOf`, `then`,
 * `else`) count: a rule stated for some values is declared.
 */
export function declaresCheckAt(document: OpenApi, operation: DocumentedOperation, pointer: string): boolean {
  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]) : schema);
  const expand = (schema: Schema | boolean | undefined): Schema[] => {
    if (!schema || typeof schema === 'boolean') return [];
    const s = resolve(schema);
    return [s, ...[...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), s.then, s.else].flatMap(expand)];
  };
  const declared = (schemas: Schema[], segments: string[]): boolean => {
    const all = schemas.flatMap(expand);
    if (all.some((s) => s['x-ramp-checks'])) return true;
    const [segment, ...rest] = segments;
    if (segment === undefined) return false;
    const inner = all.flatMap((s) =>
      [s.properties?.[segment], /^[0-9]+$/.test(segment) ? s.items : undefined].filter((x): x is Schema => typeof x === 'object'),
    );
    return inner.length > 0 && declared(inner, rest);
  };
  const segments = pointer
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  const [first, ...rest] = segments;
  if (first === 'headers') {
    const header = operation.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === rest[0]);
    return header ? declared([header.schema], rest.slice(1)) : false;
  }
  const parameter = operation.parameters.find((p) => p.in === 'query' && p.name === first);
  if (parameter) return declared([parameter.schema], rest);
  return operation.body ? declared([operation.body.schema], segments) : false;
}

/** One value of `arbitrary` (a closure of its own: fc.gen() reuses an arbitrary built from equal-looking arguments, regular expressions included). */
const draw = <T>(g: fc.GeneratorValue, arbitrary: fc.Arbitrary<T>): T => g(() => arbitrary);

/** Mostly printable ASCII, then any UTF-16 unit of the BMP: controls, noncharacters and lone surrogates too. */
const ANY_CHARACTER = fc
  .oneof({ arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 6 }, { arbitrary: fc.integer({ min: 0, max: 0xffff }), weight: 1 })
  .map((unit) => String.fromCharCode(unit));

/** Draws schema-valid values of the document's schemas. */
export function schemaGenerator(document: OpenApi) {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats.default(ajv);
  const local = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components#/$defs/'));
  ajv.addSchema({ $id: 'components', $defs: local(document.components.schemas) });
  const compiled = new Map<unknown, ValidateFunction>();
  const isValid = (schema: Schema | boolean, value: unknown) => {
    if (typeof schema === 'boolean') return schema;
    const validate = compiled.get(schema) ?? ajv.compile(local(schema));
    compiled.set(schema, validate);
    return validate(value);
  };
  const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(document.components.schemas[schema.$ref.replace('#/components/schemas/', '')]) : schema);

  /** Tries `draw` until its value is valid against `schema` (a narrower part drawn, the whole checked). */
  function until(_g: fc.GeneratorValue, schema: Schema, draw: () => unknown): unknown {
    for (let attempt = 0; attempt < 200; attempt++) {
      const value = draw();
      if (isValid(schema, value)) return value;
    }
    throw new Error(`no schema-valid value drawn in 200 attempts for ${JSON.stringify(schema).slice(0, 400)}, last ${JSON.stringify(draw())}`);
  }

  function stringOf(g: fc.GeneratorValue, s: Schema): string {
    const minLength = (s.minLength as number | undefined) ?? 0;
    const maxLength = Math.min((s.maxLength as number | undefined) ?? 40, minLength + 60);
    // A format with a pattern of Ramp's own (its email rule is narrower than RFC 5322): drawn from either, half the
    // time each, so a valid value is found whatever the seed (fc.emailAddress() alone rarely fits the pattern).
    if (s.format && typeof s.pattern === 'string' && draw(g, fc.boolean())) {
      return draw(g, fc.stringMatching(new RegExp(s.pattern as string, 'u'), { size: 'small' }));
    }
    switch (s.format) {
      case 'uuid':
        return draw(g, fc.uuid());
      case 'email':
        return draw(g, fc.emailAddress());
      case 'uri':
        return draw(g, fc.webUrl({ validSchemes: ['https'] }));
      case 'date-time':
        return draw(g, fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })).toISOString();
      case 'date':
        return draw(g, fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }))
          .toISOString()
          .slice(0, 10);
    }
    if (typeof s.pattern === 'string') return draw(g, fc.stringMatching(new RegExp(s.pattern as string, 'u'), { size: 'small' }));
    // Any text at all, control characters and lone surrogates included: a pattern must say what is refused.
    return draw(g, fc.string({ unit: ANY_CHARACTER, minLength, maxLength }));
  }

  function numberOf(g: fc.GeneratorValue, s: Schema, integer: boolean): number {
    const min = (s.minimum as number | undefined) ?? -1_000_000;
    const max = (s.maximum as number | undefined) ?? 1_000_000;
    return integer ? draw(g, fc.integer({ min, max })) : draw(g, fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
  }

  /** An object drawn until it is valid as a whole (a branch taken may have broken another). */
  const objectOf = (g: fc.GeneratorValue, s: Schema) => until(g, s, () => drawObject(g, s));

  function drawObject(g: fc.GeneratorValue, s: Schema): Record<string, unknown> {
    const properties = s.properties ?? {};
    const required = new Set(s.required ?? []);
    const object: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      if (typeof property === 'boolean') continue;
      if (required.has(name) || draw(g, fc.boolean())) object[name] = sampleOf(g, property);
    }
    // The rules across fields: each branch taken adds what it requires and narrows what it names.
    const apply = (branch: Schema | undefined) => {
      if (!branch) return;
      if (branch.if) apply(isValid(branch.if, object) ? branch.then : branch.else);
      for (const part of branch.allOf ?? []) apply(part);
      for (const name of branch.required ?? []) {
        const base = properties[name];
        if (!(name in object) && typeof base === 'object') object[name] = sampleOf(g, { allOf: [base, branch.properties?.[name] ?? {}] } as Schema);
      }
      for (const [name, narrowed] of Object.entries(branch.properties ?? {})) {
        if (!(name in object)) continue;
        if (narrowed === false) delete object[name];
        else if (typeof narrowed === 'object' && !isValid(narrowed, object[name])) {
          object[name] = sampleOf(g, { allOf: [properties[name] as Schema, narrowed] } as Schema);
        }
      }
      for (const name of branch.not?.required ?? []) if (!required.has(name)) delete object[name];
      for (const [name, dependents] of Object.entries(branch.dependentRequired ?? {})) if (name in object) apply({ required: dependents });
      const alternatives = branch.oneOf ?? branch.anyOf;
      if (alternatives) apply(alternatives[draw(g, fc.nat(alternatives.length - 1))]);
    };
    const { properties: _properties, required: _required, ...rules } = s;
    apply(rules);
    return object;
  }

  function sampleOf(g: fc.GeneratorValue, schema: Schema): unknown {
    const s = resolve(schema);
    if ('const' in s) return s.const;
    // A value with check digits or a registry behind it (an IBAN, a BIC) that JSON Schema cannot state: its examples are the valid values a generator knows.
    if (s['x-ramp-checks'] && Array.isArray(s.examples)) return draw(g, fc.constantFrom(...s.examples));
    if (s.enum) return until(g, s, () => draw(g, fc.constantFrom(...(s.enum as unknown[]))));
    if (s.anyOf || (s.oneOf && !s.properties)) {
      const branches = (s.anyOf ?? s.oneOf)!;
      return until(g, s, () => sampleOf(g, branches[draw(g, fc.nat(branches.length - 1))]!));
    }
    if (s.allOf && !s.properties && !s.type) {
      // The narrowest part drawn (an enum, a const, a pattern), the whole checked.
      const parts = s.allOf.map(resolve);
      const narrow =
        parts.find((p) => p['x-ramp-checks'] && p.examples) ??
        parts.find((p) => 'const' in p || p.enum) ??
        parts.findLast((p) => p.pattern || p.format) ??
        parts.find((p) => p.properties) ??
        parts[0]!;
      // An object keeps its own rules across fields, after the other parts' (which narrow it: a variant, a country).
      const merged = narrow.properties ? { ...narrow, allOf: [...parts.filter((p) => p !== narrow), ...(narrow.allOf ?? [])] } : narrow;
      return until(g, s, () => sampleOf(g, merged));
    }
    const types = [s.type ?? (s.properties ? 'object' : 'string')].flat();
    const type = types[draw(g, fc.nat(types.length - 1))];
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return draw(g, fc.boolean());
      case 'integer':
        return numberOf(g, s, true);
      case 'number':
        return numberOf(g, s, false);
      case 'array': {
        const minItems = (s.minItems as number | undefined) ?? 0;
        const length = draw(g, fc.integer({ min: minItems, max: Math.min((s.maxItems as number | undefined) ?? 3, minItems + 3) }));
        return Array.from({ length }, () => sampleOf(g, s.items ?? {}));
      }
      case 'object':
        return objectOf(g, s);
      default:
        return until(g, { ...s, type: 'string' }, () => stringOf(g, s));
    }
  }

  return { sampleOf, isValid };
}

/**
 * One schema-valid request to `operation`: path parameters from `ids` (real resources) where it
 * has them, else drawn from their schema; query, headers and body drawn from theirs. A body field
 * named in `bodyIds` (one that names a stored resource, such as the customer a KYB section is for)
 * takes one of its real values half the time, so the rules behind that lookup are reached too.
 */
export function requestOf(
  g: fc.GeneratorValue,
  generator: ReturnType<typeof schemaGenerator>,
  operation: DocumentedOperation,
  ids: Record<string, string[]>,
  bodyIds: Record<string, string[]> = {},
): GeneratedRequest {
  const headers: Record<string, string> = {};
  const query = new URLSearchParams();
  let path = operation.path;
  for (const parameter of operation.parameters) {
    if (parameter.in === 'path') {
      const known = ids[parameter.name];
      const value = known?.length ? draw(g, fc.constantFrom(...known)) : (generator.sampleOf(g, parameter.schema) as string);
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    } else if (parameter.required || draw(g, fc.boolean())) {
      const value = String(generator.sampleOf(g, parameter.schema));
      if (parameter.in === 'query') query.set(parameter.name, value);
      else if (parameter.in === 'header') headers[parameter.name.toLowerCase()] = value;
    }
  }
  const body = operation.body && (operation.body.required || draw(g, fc.boolean())) ? generator.sampleOf(g, operation.body.schema) : undefined;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const fields = body as Record<string, unknown>;
    for (const [name, known] of Object.entries(bodyIds)) {
      if (typeof fields[name] === 'string' && known.length && draw(g, fc.boolean())) fields[name] = draw(g, fc.constantFrom(...known));
    }
  }
  const search = query.toString();
  return { operationId: operation.operationId, method: operation.method, path: search ? `${path}?${search}` : path, headers, body };
}
