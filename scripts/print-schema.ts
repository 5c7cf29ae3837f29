import { printSchema } from 'graphql';
import { writeFileSync } from 'node:fs';
import { features } from '../src/features.js';
import { buildSchema } from '../src/graphql/schema.js';

/** Writes schema.graphql from the code (the committed copy must match; a test checks it). */
export const printedSchema = async () => `${printSchema(await buildSchema(features))}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('../schema.graphql', import.meta.url), await printedSchema());
  process.stdout.write('schema.graphql written\n');
}
