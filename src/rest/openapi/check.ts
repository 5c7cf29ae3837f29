import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type OpenApiDocument, foldedPath, openApiPath } from './document.js';

/** One answer as the server sent it. */
export interface SentResponse {
  method: string;
  /** The route's pattern as Fastify registered it (`/v0/customers/:customer_id`). */
  route: string;
  status: number;
  contentType: string | undefined;
  body: string;
}

type Response = { $ref?: string; content?: Record<string, { schema: object }> };
type Operation = { responses: Record<string, Response> };

/**
 * Checks answers against the OpenAPI document with Ajv in strict mode: the status must be one the
 * operation lists, the content type its own and the body valid against its schema. The test suite
 * runs every REST answer it receives through this (test/support/ramp.ts), so drift fails CI.
 */
export function contractCheck(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  // Component refs (`#/components/schemas/X`) resolve against a schema of its own holding them.
  const local = (schema: object) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components#/$defs/'));
  ajv.addSchema({ $id: 'components', $defs: local(document.components.schemas) });
  const responses = document.components.responses as Record<string, Response>;
  const operations = new Map<string, Operation>();
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) operations.set(`${method.toUpperCase()} ${foldedPath(path)}`, operation as Operation);
  }
  const compiled = new Map<object, ValidateFunction>();
  const validatorOf = (schema: object) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(local(schema));
      compiled.set(schema, validate);
    }
    return validate;
  };

  return {
    /** Every answer schema the document has, compiled; what Ajv strict refuses (none, for a sound document). */
    schemaErrors(): { compiled: number; errors: string[] } {
      const errors: string[] = [];
      let compiled = 0;
      for (const [where, operation] of operations) {
        for (const [status, listed] of Object.entries(operation.responses)) {
          const response = listed.$ref ? responses[listed.$ref.replace('#/components/responses/', '')] : listed;
          for (const media of Object.values(response?.content ?? {})) {
            try {
              validatorOf(media.schema);
              compiled++;
            } catch (error) {
              errors.push(`${where} → ${status}: ${(error as Error).message}`);
            }
          }
        }
      }
      return { compiled, errors };
    },
    /** Whether the document describes this route (a /docs page or /graphql is not REST). */
    covers: (method: string, route: string) => operations.has(`${method} ${foldedPath(openApiPath(route))}`),
    /** What is wrong with the answer, empty when it keeps the contract. */
    violations(sent: SentResponse): string[] {
      const where = `${sent.method} ${sent.route} → ${sent.status}`;
      const operation = operations.get(`${sent.method} ${foldedPath(openApiPath(sent.route))}`);
      if (!operation) return [];
      const listed = operation.responses[String(sent.status)];
      const response = listed?.$ref ? responses[listed.$ref.replace('#/components/responses/', '')] : listed;
      if (!response) return [`${where}: status not in the document (${Object.keys(operation.responses).join(', ')})`];
      if (!response.content) return sent.body === '' ? [] : [`${where}: a body where the document has none`];
      const mediaType = sent.contentType?.split(';')[0]?.trim();
      const media = mediaType ? response.content[mediaType] : undefined;
      if (!media) return [`${where}: content type ${mediaType} is not ${Object.keys(response.content).join(' or ')}`];
      // Another media type than JSON (an export as text/csv) is checked by its own tests, not against a JSON schema.
      if (!/[/+]json$/.test(mediaType!)) return [];
      let body: unknown;
      try {
        body = JSON.parse(sent.body);
      } catch {
        return [`${where}: the body is not JSON`];
      }
      let validate: ValidateFunction;
      try {
        validate = validatorOf(media.schema);
      } catch (error) {
        return [`${where}: the document's schema does not compile under Ajv strict: ${(error as Error).message}`];
      }
      return validate(body) ? [] : [`${where}: ${ajv.errorsText(validate.errors, { separator: '; ' })} in ${sent.body.slice(0, 600)}`];
    },
  };
}
