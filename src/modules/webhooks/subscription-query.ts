import {
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  validate,
  valueFromAST,
} from 'graphql';
import { type FieldError, ValidationError, fieldError } from '../../domain/errors.js';
import type { EventType } from '../../domain/events.js';
import { incrementalInQueriesOnly } from '../../graphql/incremental.js';
import { MAX_TOKENS, documentLimitRules } from '../../graphql/guards/limits.js';

/** The subscription field a webhook's query selects, and the one argument it may give. */
const EVENTS_FIELD = 'events';
const TYPES_ARGUMENT = 'types';

/** A subscription query that passed every check: its parsed document, and the event types its `types` argument names. */
export interface CheckedQuery {
  document: DocumentNode;
  /** Null when the query names no types (or an empty list): every event type. */
  types: EventType[] | null;
}

/** Checks a webhook's subscription query at registration; throws a ValidationError pointing at `pointer`. */
export type CheckSubscriptionQuery = (query: string, pointer: string) => CheckedQuery;

/** graphql's own sentence, with where in the query it applies: the partner wrote it and fixes it there. */
function detail(prefix: string, error: GraphQLError): string {
  const at = error.locations?.[0];
  return `${prefix}: ${error.message}${at ? ` (line ${at.line}, column ${at.column})` : ''}`;
}

/** Which limit a limit rule's error is about (its extension code, or the complexity rule's wording). */
function limitCodeOf(error: GraphQLError): string {
  if (error.extensions?.code === 'QUERY_ALIASES') return 'too_many_aliases';
  if (error.extensions?.code === 'VALIDATION_FAILED') return 'invalid_characters';
  if (/depth/i.test(error.message)) return 'query_too_deep';
  if (/breadth/i.test(error.message)) return 'query_too_wide';
  return 'query_too_complex';
}

function parsed(query: string, pointer: string): DocumentNode {
  try {
    return parse(query, { maxTokens: MAX_TOKENS, noLocation: false });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    if (/tokens/.test(error.message)) throw new ValidationError([fieldError(pointer, 'query_too_long', `must be at most ${MAX_TOKENS} tokens`)]);
    throw new ValidationError([fieldError(pointer, 'graphql_syntax_error', detail('is not valid GraphQL', error))]);
  }
}

/** The one operation's shape: a subscription, no variables, `events` selected directly and alone. */
function shapeErrors(document: DocumentNode, pointer: string): { errors: FieldError[]; events?: FieldNode } {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operations.length !== 1) return { errors: [fieldError(pointer, 'not_one_operation', 'must hold exactly one operation (fragments may follow it)')] };
  const operation = operations[0]!;
  const errors: FieldError[] = [];
  if (operation.operation !== 'subscription') {
    errors.push(fieldError(pointer, 'not_a_subscription', `must be a subscription, not a ${operation.operation}: subscription { events { … } }`));
  }
  if (operation.variableDefinitions?.length) {
    errors.push(fieldError(pointer, 'variables_not_allowed', 'must declare no variables: a delivery has none to give (write `types` as a literal)'));
  }
  const [root, ...more] = operation.selectionSet.selections;
  const isEvents = operation.operation === 'subscription' && root?.kind === Kind.FIELD && root.name.value === EVENTS_FIELD && !more.length;
  const events = isEvents ? (root as FieldNode) : undefined;
  if (operation.operation === 'subscription' && !events) {
    errors.push(fieldError(pointer, 'not_events_subscription', 'must select the `events` subscription field, directly and alone'));
  }
  for (const argument of events?.arguments ?? []) {
    if (argument.name.value !== TYPES_ARGUMENT) {
      errors.push(fieldError(pointer, 'argument_not_allowed', `must not give events(${argument.name.value}:): a webhook receives each event as it commits`));
    }
  }
  return { errors, events };
}

/** The `types` literal in the schema's own values (`CUSTOMER_CREATED` is customer.created). */
function typesOf(schema: GraphQLSchema, events: FieldNode): EventType[] | null {
  const argument = events.arguments?.find((a) => a.name.value === TYPES_ARGUMENT);
  const definition = schema
    .getSubscriptionType()
    ?.getFields()
    [EVENTS_FIELD]?.args.find((a) => a.name === TYPES_ARGUMENT);
  if (!argument || !definition) return null;
  const types = valueFromAST(argument.value, definition.type) as EventType[] | null | undefined;
  return types?.length ? [...new Set(types)] : null;
}

/**
 * Checks a webhook's subscription query against the schema the API serves, as a request's operation
 * would be (syntax, fields and fragments, the depth, breadth, complexity and alias limits), and for
 * what a delivery can run: one subscription operation, selecting `events` alone, without variables,
 * with `types` as its only argument. Every problem is a field error at `pointer`.
 */
export function checkSubscriptionQuery(schema: GraphQLSchema, query: string, pointer: string): CheckedQuery {
  const document = parsed(query, pointer);
  // A delivery is one body: @defer and @stream, which the schema declares for queries, are refused here too.
  const invalid = validate(schema, document, [...specifiedRules, incrementalInQueriesOnly]);
  if (invalid.length) throw new ValidationError(invalid.map((e) => fieldError(pointer, 'graphql_invalid', detail('does not match the schema', e))));
  const { errors, events } = shapeErrors(document, pointer);
  if (errors.length) throw new ValidationError(errors);
  const overLimits = validate(schema, document, documentLimitRules());
  if (overLimits.length) throw new ValidationError(overLimits.map((e) => fieldError(pointer, limitCodeOf(e), detail('is over the limits', e))));
  return { document, types: typesOf(schema, events!) };
}
