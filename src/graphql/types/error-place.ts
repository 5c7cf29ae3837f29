import { GraphQLError, type Source } from 'graphql';

/** Duck-typed: graphql may be loaded twice (CJS and ESM), so instanceof is not reliable for errors. */
export const isGraphQLError = (e: unknown): e is GraphQLError => e instanceof Error && e.name === 'GraphQLError';

/**
 * `replacement` told where `error` happened, for an error rebuilt with another text or code: a field's
 * failure keeps naming that field by `path` and `locations`. Yoga rebuilds every error once more before
 * it answers, from `nodes` or `source` and `positions`, so those travel too. A request-level error has no path.
 */
export const inPlaceOf = (error: unknown, replacement: GraphQLError): GraphQLError => {
  if (!isGraphQLError(error) || !error.path) return replacement;
  const { path, locations, nodes, source, positions } = error;
  return Object.assign(replacement, { path, locations, nodes, source, positions });
};

/**
 * `error` with the positions in `source` of its `locations`. graphql-jit's field errors carry locations
 * alone (no AST nodes, no positions), so Yoga's last rebuild of each error would drop them.
 */
export function positionedIn(source: Source, error: GraphQLError): GraphQLError {
  if (error.positions || !error.locations?.length) return error;
  const lineStarts = [0];
  for (const match of source.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(match.index + match[0].length);
  const positions = error.locations.map(({ line, column }) => (lineStarts[line - 1] ?? 0) + column - 1);
  const { message, path, originalError, extensions } = error;
  return new GraphQLError(message, { source, positions, path, originalError, extensions });
}
