import type { Plugin } from 'graphql-yoga';
import { Kind, getOperationAST } from 'graphql';
import { activeSpan, inChildSpan, isTracing } from '../platform/observability/tracing.js';

/**
 * A span per GraphQL operation, child of the request's: its SQL statements and the events it records nest
 * under it. Resolvers get none (a page of transfers runs a thousand of them); the operation's root fields are
 * named on it instead, which is what tells one `mutation` from another. Without spans it adds one lookup.
 */
export function useOperationTracing(): Plugin {
  return {
    instrumentation: {
      execute: (_, wrapped) =>
        isTracing()
          ? inChildSpan('graphql.execute', {}, async () => {
              await wrapped();
            })
          : wrapped(),
    },
    // Runs inside the span above: it names the span after the operation, once the document is known.
    onExecute({ args }) {
      const span = activeSpan();
      if (!span) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      const rootFields = operation.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [s.name.value] : []));
      span.updateName(`${operation.operation} ${operation.name?.value ?? rootFields.join(',')}`);
      span.setAttributes({
        'graphql.operation.type': operation.operation,
        ...(operation.name && { 'graphql.operation.name': operation.name.value }),
        'ramp.graphql.root_fields': rootFields,
      });
    },
  };
}
