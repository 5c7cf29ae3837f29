import { createConfig, lintFromString } from '@redocly/openapi-core';
import { readFileSync } from 'node:fs';

/**
 * Lints openapi.json with Redocly's rules (the engine of `redocly lint`, run offline: no network,
 * no telemetry): the `recommended` set, each finding an error. Exits non-zero on any finding.
 */
export async function lintOpenApi(source: string) {
  const config = await createConfig({
    extends: ['recommended'],
    rules: {
      // Ramp's API is served at the origin that serves the document: `/` is its server.
      'no-server-example.com': 'error',
      // 4xx answers are listed per route (problem+json or the Encryptus envelope).
      'operation-4xx-response': 'error',
      'info-license-strict': 'off',
      // The spec's own paths: `…/{transfer_id}/cancel` and `…/quote/{quote_id}` differ by their literal segment.
      'no-ambiguous-paths': 'off',
      // The rules across fields are subschemas (`oneOf: [{ required: [a] }, …]`, `if`/`then`) that name the body's own
      // properties, declared beside them; the rule reads each subschema alone and finds them undefined.
      'no-required-schema-properties-undefined': 'off',
      // Each body states its own `additionalProperties: false`; the rule's stricter default also refuses, in every
      // conditional subschema, the properties the body declares beside it.
      'no-invalid-media-type-examples': { severity: 'error', allowAdditionalProperties: true },
    },
  });
  const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
  return problems.filter((p) => p.severity === 'error' || p.severity === 'warn');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = await lintOpenApi(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
  for (const p of problems) process.stdout.write(`${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}\n`);
  process.stdout.write(`openapi.json: ${problems.length} lint problems\n`);
  process.exitCode = problems.length ? 1 : 0;
}
