import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lintSchema } from '../../scripts/lint-schema.js';

const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');

describe('schema.graphql lint (graphql-eslint)', () => {
  it('describes every type, field, argument, input field and enum value, and follows the Relay connection rules', async () => {
    const problems = await lintSchema(committed);
    expect(problems.map((p) => `${p.line}:${p.column} ${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('names what is undescribed: a field, an argument, an enum value', async () => {
    const sdl = `
      """Reads"""
      type Query {
        """A page"""
        thing(id: ID!): Thing
      }
      """A thing"""
      type Thing {
        name: String!
        """Its kind"""
        kind: Kind!
      }
      """Kinds"""
      enum Kind {
        """One"""
        ONE
        TWO
      }
    `;
    const messages = (await lintSchema(sdl)).filter((p) => p.ruleId === '@graphql-eslint/require-description').map((p) => p.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringContaining('input value "id" in field "thing"'),
        expect.stringContaining('field "name" in type "Thing"'),
        expect.stringContaining('enum value "TWO" in enum "Kind"'),
      ]),
    );
    expect(messages).toHaveLength(3);
  });

  it('refuses a connection whose edges are not a list of edges with a node and a cursor', async () => {
    const sdl = `
      """Reads"""
      type Query {
        """Things"""
        things(
          """Page size"""
          first: Int
          """Cursor"""
          after: String
          """Page size"""
          last: Int
          """Cursor"""
          before: String
        ): ThingConnection
      }
      """A page"""
      type ThingConnection {
        """Things"""
        edges: [String!]!
      }
    `;
    const rules = new Set((await lintSchema(sdl)).map((p) => p.ruleId));
    expect(rules).toContain('@graphql-eslint/relay-connection-types');
  });
});
