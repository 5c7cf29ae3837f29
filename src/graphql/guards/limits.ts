import { createComplexityRule } from '@pothos/plugin-complexity';
import {
  type ASTNode,
  type ASTVisitor,
  type DocumentNode,
  type OperationDefinitionNode,
  type ExecutionArgs,
  GraphQLError,
  type ValidationRule,
  parse,
  validate,
  visit,
} from 'graphql';
import { createGraphQLError, isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { FieldError } from '../../domain/errors.js';
import { isAcceptableText, refusedTextError, refusedTextIn } from '../../domain/validation.js';
import { inPlaceOf, isGraphQLError } from '../types/error-place.js';
import { operationPrice } from './prices.js';

/**
 * Query limits: deep enough for a transfer with its customer and postings, far below abuse.
 * Tokens bound the work of parsing and validating at all (GraphiQL's introspection query is ~200);
 * aliases bound one field asked many times under different names.
 */
export const GRAPHQL_LIMITS = { maxDepth: 12, maxComplexity: 5000, maxBreadth: 200 } as const;
export const MAX_TOKENS = 5000;
export const MAX_ALIASES = 50;

/** Connection options that price `edges` at nothing: its nodes are priced by the page size (prices.ts). */
export { edgesCountedByPage } from './prices.js';

type Params = { variables?: Record<string, unknown>; operationName?: string | null };

const refusal = (message: string, code: string, extensions: Record<string, unknown> = {}) => new GraphQLError(message, { extensions: { code, ...extensions } });

/** A refusal for a document over one of the limits above; its HTTP status is set as the answer leaves (useQueryLimits). */
const limitRefusal = (message: string, code: string) => refusal(message, code);

/** Field problems as GraphQL's FieldError spells them (the same shape as a refused argument's). */
const asGraphQL = (errors: FieldError[]) => errors.map((e) => ({ path: e.pointer, code: e.code, message: e.detail }));

/** Text the REST API would refuse (control characters, lone surrogates, too deep) in the variables. */
function refusedVariables(variables: Record<string, unknown>): GraphQLError[] {
  const fieldErrors = refusedTextIn(variables, '/variables');
  return fieldErrors.length
    ? [refusal('A variable holds refused characters or nests too deep', 'VALIDATION_FAILED', { fieldErrors: asGraphQL(fieldErrors) })]
    : [];
}

/** The same text refused in a string literal of the document. */
const refusedLiterals: ValidationRule = (context) => ({
  StringValue(node) {
    if (isAcceptableText(node.value)) return;
    context.reportError(
      new GraphQLError('A string literal holds refused characters', {
        nodes: [node],
        extensions: { code: 'VALIDATION_FAILED', fieldErrors: asGraphQL([refusedTextError('')]) },
      }),
    );
  },
});

/** Text the REST API would refuse in a literal or a variable. */
function refusedText(variables: Record<string, unknown>): ValidationRule {
  return (context) => {
    for (const error of refusedVariables(variables)) context.reportError(error);
    return refusedLiterals(context);
  };
}

const tooManyAliases: ValidationRule = (context) => {
  let aliases = 0;
  return {
    Field(node) {
      if (node.alias) aliases++;
    },
    Document: {
      // Last, so a breadth or complexity error, which says more, comes first.
      leave() {
        if (aliases > MAX_ALIASES) context.reportError(limitRefusal(`At most ${MAX_ALIASES} aliases per document`, 'QUERY_ALIASES'));
      },
    },
  };
};

type Visit = (...args: unknown[]) => unknown;

const isLimitRefusal = (error: unknown): error is GraphQLError => isGraphQLError(error) && /^QUERY_/.test(String(error.extensions?.code));

/**
 * A limit's refusal (QUERY_COMPLEXITY, QUERY_DEPTH, QUERY_BREADTH, QUERY_ALIASES, QUERY_TOO_LONG) is answered 400, as
 * MAX_COST_EXCEEDED is: the document will never run as written, and a client that reads only the status must not take
 * it for data. `spec: false` keeps Yoga from answering it 200 as it answers graphql's own validation errors to
 * `application/json` clients. The `http` object is made for this one answer, as the last step before the status is
 * chosen: Yoga's own hooks write into the `http` of the errors they pass (a parse error's `spec ||= true`), so one
 * shared or earlier-made object would carry that write into every later refusal of the process, of every Ramp in it.
 */
const answeredAsBadRequest = (error: GraphQLError) =>
  inPlaceOf(error, new GraphQLError(error.message, { nodes: error.nodes, extensions: { ...error.extensions, http: { status: 400, spec: false } } }));

/**
 * The complexity rule evaluates arguments to read `first`; an argument graphql itself refuses
 * (a DateTime out of range) throws there and would end validation with an error without a code.
 * It is reported last instead, after the standard rules' more precise error for the same argument.
 */
function reportingThrown(rule: ValidationRule): ValidationRule {
  return (context) => {
    let thrown: GraphQLError | undefined;
    // graphql's own rules already name an unknown field (with its location): one error for one mistake.
    const quiet = Object.create(context, {
      reportError: { value: (error: GraphQLError) => !error.message.startsWith('Unknown field selected') && context.reportError(error) },
    });
    const visitor = rule(quiet) as { OperationDefinition?: { enter?: Visit; leave?: Visit } };
    const guarded = (visit?: Visit): Visit | undefined =>
      visit &&
      ((...args) => {
        try {
          return visit(...args);
        } catch (error) {
          thrown ??= error instanceof GraphQLError ? error : new GraphQLError('The cost of this operation cannot be computed');
        }
      });
    return {
      OperationDefinition: { enter: guarded(visitor.OperationDefinition?.enter), leave: guarded(visitor.OperationDefinition?.leave) },
      Document: {
        leave() {
          if (thrown) context.reportError(new GraphQLError(thrown.message, { nodes: thrown.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
        },
      },
    };
  };
}

/** The checks that depend on the variables, which yoga's validation cache (keyed by document) cannot see. */
function variableRules(context: object, params: Params): ValidationRule[] {
  const variables = params.variables && typeof params.variables === 'object' ? params.variables : {};
  return [refusedText(variables), complexityRule(context, variables, params.operationName)];
}

/**
 * The depth and breadth limits are Pothos' count; the complexity limit is the operation's price (prices.ts),
 * which is also what the cost budget charges, worked out as Pothos leaves each operation.
 */
const complexityRule = (
  context: object,
  variables: Record<string, unknown>,
  operationName?: string | null,
  onResult?: (result: { complexity: number }) => void,
): ValidationRule =>
  reportingThrown((validation) => {
    let operation: OperationDefinitionNode | undefined;
    const { maxComplexity, ...limits } = GRAPHQL_LIMITS;
    const visitor = createComplexityRule({
      context,
      variableValues: variables,
      operationName: operationName ?? undefined,
      ...limits,
      validate(state, report) {
        const complexity = operation ? operationPrice(validation.getSchema(), validation.getDocument(), operation, variables, context) : 0;
        if (complexity > maxComplexity) {
          report(
            new GraphQLError(`Query complexity of ${complexity} exceeds max complexity of ${maxComplexity}`, {
              extensions: { queryComplexity: { max: maxComplexity, actual: complexity }, code: 'QUERY_COMPLEXITY' },
            }),
          );
        }
        if (state.depth > limits.maxDepth) report(limitRefusal(`Query depth of ${state.depth} exceeds max depth of ${limits.maxDepth}`, 'QUERY_DEPTH'));
        if (state.breadth > limits.maxBreadth)
          report(limitRefusal(`Query breadth of ${state.breadth} exceeds max breadth of ${limits.maxBreadth}`, 'QUERY_BREADTH'));
        onResult?.({ complexity });
      },
    })(validation) as { OperationDefinition?: { enter?: Visit; leave?: Visit } };
    const enter = visitor.OperationDefinition?.enter;
    return {
      ...visitor,
      OperationDefinition: {
        enter: (...args: unknown[]) => {
          operation = args[0] as OperationDefinitionNode;
          return enter?.(...args);
        },
        leave: visitor.OperationDefinition?.leave,
      },
    } as ASTVisitor;
  });

/**
 * The arguments a field's cost reads (connection page sizes, `nodes(ids:)`: connectionPrice and nodesPrice in
 * prices.ts); a directive's arguments (`@include(if:)`) decide which fields count at all.
 */
const COST_ARGUMENTS = new Set(['first', 'last', 'ids']);

/** The variables a document's cost depends on: those given to a cost argument or a directive. */
function costVariablesOf(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (node: ASTNode) => visit(node, { Variable: (v) => void names.add(v.name.value) });
  visit(document, {
    Field: (field) => field.arguments?.filter((a) => COST_ARGUMENTS.has(a.name.value)).forEach(collect),
    Directive: (directive) => void collect(directive),
  });
  return [...names].sort();
}

/**
 * The execution-time check of a document's literals and cost, kept per document and the values of
 * the variables its cost reads: a client that sends the same operation with another `id` costs a
 * map lookup, not a walk of the document (a tenth of a small query's time). Bounded per document.
 */
type CostCheck = { errors: readonly GraphQLError[]; complexity: number };
const costChecks = new WeakMap<DocumentNode, { variables: string[]; checks: Map<string, CostCheck> }>();
const COST_CHECKS_PER_DOCUMENT = 100;

function costCheck(args: ExecutionArgs, variables: Record<string, unknown>): CostCheck {
  let perDocument = costChecks.get(args.document);
  if (!perDocument) {
    perDocument = { variables: costVariablesOf(args.document), checks: new Map() };
    costChecks.set(args.document, perDocument);
  }
  const key = JSON.stringify([args.operationName ?? null, perDocument.variables.map((name) => variables[name] ?? null)]);
  let check = perDocument.checks.get(key);
  if (!check) {
    let complexity = 0;
    const onResult = (result: { complexity: number }) => {
      complexity = result.complexity;
    };
    const rules = [refusedLiterals, complexityRule(args.contextValue as object, variables, args.operationName, onResult)];
    const errors = validate(args.schema, args.document, rules).map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED'));
    check = { errors, complexity };
    if (perDocument.checks.size >= COST_CHECKS_PER_DOCUMENT) perDocument.checks.clear();
    perDocument.checks.set(key, check);
  }
  return check;
}

/**
 * The complexity of the operation about to run (the same figure the limit above checks), from the
 * check useQueryLimits made of it just before: what the cost budget (cost.ts) charges.
 */
export const operationComplexity = (args: ExecutionArgs): number => costCheck(args, (args.variableValues ?? {}) as Record<string, unknown>).complexity;

/**
 * The limits every operation gets (depth, breadth, complexity, aliases, refused text), for a document
 * checked outside a request: a webhook's subscription query, which takes no variables.
 */
export const documentLimitRules = (): ValidationRule[] => [...variableRules({}, {}), tooManyAliases];

/** graphql-js's own request errors (a variable of the wrong type) carry no code; every error Ramp sends has one. */
const withCode = (error: GraphQLError, code: string) =>
  error.extensions?.code
    ? error
    : inPlaceOf(error, new GraphQLError(error.message, { nodes: error.nodes, originalError: error.originalError, extensions: { ...error.extensions, code } }));

const badRequest = (message: string) => createGraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });

/**
 * Rejects a too long, too deep, too wide or too costly operation, or one with refused text,
 * before anything runs: during parsing and validation, and again just before execution with the
 * request's own variables, because validation results are cached per document.
 */
export function useQueryLimits(): Plugin {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      if (!requestParser) return;
      // Yoga reads GET's `variables` and `extensions` with a bare JSON.parse: a SyntaxError would be a 500.
      setRequestParser(async (request) => {
        try {
          return await requestParser(request);
        } catch (error) {
          if (error instanceof SyntaxError) throw badRequest('The variables or extensions parameter is not valid JSON');
          throw error;
        }
      });
    },
    onParse({ setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parse(source, { ...options, maxTokens: MAX_TOKENS });
        } catch (error) {
          // graphql's own message; the code says which limit it was.
          if (error instanceof GraphQLError && /tokens/.test(error.message)) {
            throw limitRefusal(`The document is longer than ${MAX_TOKENS} tokens`, 'QUERY_TOO_LONG');
          }
          throw error;
        }
      });
    },
    onValidate({ addValidationRule, context }) {
      const params = (context as { params?: Params }).params ?? {};
      for (const rule of [...variableRules(context, params), tooManyAliases]) addValidationRule(rule);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      const errors = [...refusedVariables(variables).map((e) => withCode(e, 'GRAPHQL_VALIDATION_FAILED')), ...costCheck(args, variables).errors];
      if (errors.length) return setResultAndStopExecution({ errors });
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result) || !result.errors?.some((e) => !e.extensions?.code)) return;
          setResult({ ...result, errors: result.errors.map((e) => withCode(e, 'BAD_USER_INPUT')) });
        },
      };
    },
    // Whichever way a limit's refusal came (parsing, a rule, a validation result Yoga kept for the document, the check
    // before execution), it is a 400.
    onResultProcess({ result, setResult }) {
      if (isAsyncIterable(result) || Array.isArray(result) || !result.errors?.some(isLimitRefusal)) return;
      setResult({ ...result, errors: result.errors.map((error) => (isLimitRefusal(error) ? answeredAsBadRequest(error) : error)) });
    },
  };
}
