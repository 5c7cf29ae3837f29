import { expect } from 'vitest';
import type { ApiClient } from './ramp.js';

/** A sandbox key's prefix, as the audit log names it. */
export const prefixOf = (key: string) => key.slice(0, 'rk_sandbox_'.length + 8);

/** The rows of the partner's audit log (read with its admin key) that `key` made, newest first. */
export async function auditRowsOfKey(admin: ApiClient, key: string): Promise<any[]> {
  const answer = await admin.get('/v0/audit-events?limit=100');
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return (answer.body.items as any[]).filter((row) => row.actor.api_key_prefix === prefixOf(key));
}
