import { expect } from 'vitest';
import type { ApiClient, ApiResponse } from '../ramp.js';

type Listed = { pointer?: string; path?: string; code: string };
const lines = (errors: Listed[], key: 'pointer' | 'path') => errors.map((e) => `${e[key]} ${e.code}`).sort();

/** A REST 400's field errors as sorted `pointer code` lines, from problem+json or the Encryptus envelope. */
export function restFieldErrors(res: ApiResponse, code = 'validation_failed'): string[] {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  if (res.body.success === false) {
    expect(res.body.code).toBe('EN-DATA-009');
    return lines(res.body.data.errors, 'pointer');
  }
  expect(res.body.code).toBe(code);
  return lines(res.body.errors, 'pointer');
}

/** A mutation's typed ValidationError as sorted `path code` lines. */
export async function graphqlFieldErrors(
  client: ApiClient,
  query: string,
  field: string,
  variables: Record<string, unknown>,
  code = 'VALIDATION_FAILED',
): Promise<string[]> {
  const res = await client.graphql(query, variables);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  const result = res.body.data[field];
  expect(result.__typename, JSON.stringify(result)).toBe('ValidationError');
  expect(result.code).toBe(code);
  return lines(result.fieldErrors, 'path');
}
