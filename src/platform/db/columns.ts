import { p } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';

/**
 * Columns every entity spells the same way, filled on insert when the use case left them out.
 * `updatedAt` stays the use case's to set: the event recorded with a change carries the same value.
 */
export const idColumn = () =>
  p
    .uuid()
    .primary()
    .onCreate(() => randomUUID());
export const createdAtColumn = () => p.datetime().onCreate(() => new Date());
