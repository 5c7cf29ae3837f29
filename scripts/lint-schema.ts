import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import { ESLint, type Linter } from 'eslint';
import { readFileSync } from 'node:fs';

/**
 * Lints schema.graphql with graphql-eslint: every type, field, argument, input field and enum value
 * is described (GraphiQL's docs pane and generated clients show these), and connections, edges,
 * pageInfo and connection arguments follow the Relay cursor connections specification.
 */
export async function lintSchema(sdl: string): Promise<Linter.LintMessage[]> {
  const eslint = new ESLint({
    // The configuration is this file: no eslint.config.js for the rest of the code (Biome lints TypeScript).
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.graphql'],
        languageOptions: { parser: graphqlPlugin.parser, parserOptions: { graphQLConfig: { schema: sdl } } },
        plugins: { '@graphql-eslint': graphqlPlugin as unknown as ESLint.Plugin },
        rules: {
          '@graphql-eslint/require-description': [
            'error',
            {
              types: true,
              FieldDefinition: true,
              InputValueDefinition: true,
              EnumValueDefinition: true,
              DirectiveDefinition: true,
              ScalarTypeDefinition: true,
            },
          ],
          '@graphql-eslint/relay-connection-types': 'error',
          // Short, bounded lists of values that are not nodes (a transfer's status history and postings, an error's
          // field errors, a network's token contracts) are plain lists by design: paging them would cost every client
          // a connection for a handful of items. Lists of nodes are connections everywhere (a test of ours checks the
          // rule's other parts: edges name a Node and end in Edge).
          '@graphql-eslint/relay-edge-types': ['error', { listTypeCanWrapOnlyEdgeType: false }],
          '@graphql-eslint/relay-page-info': 'error',
          '@graphql-eslint/relay-arguments': 'error',
        },
      },
    ],
  });
  const [result] = await eslint.lintText(sdl, { filePath: 'schema.graphql' });
  return result?.messages ?? [];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const messages = await lintSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));
  for (const m of messages) process.stdout.write(`schema.graphql:${m.line}:${m.column} ${m.ruleId ?? ''}: ${m.message}\n`);
  process.stdout.write(`schema.graphql: ${messages.length} lint problems\n`);
  process.exitCode = messages.length ? 1 : 0;
}
