import {
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getVariableValues,
  isInterfaceType,
  isLeafType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * What an operation costs, by Shopify's rules, so a partner can work a price out from the document alone:
 * a scalar or enum costs 0, an object (or union, or interface) 1 plus what it selects, and a connection 1
 * plus its page size times what one item costs, at least 1 (a page reads its rows whatever it selects of them).
 * A connection's `edges`, `cursor` and `pageInfo` add nothing more: they come with the page. The same figure bounds one operation (QUERY_COMPLEXITY) and is charged to the
 * key's cost bucket (cost.ts). A mutation field costs MUTATION_COST more, wherever it is written (in a fragment too).
 */

/** What a mutation field costs on top of its selection: a write is dearer than the fields it returns. */
export const MUTATION_COST = 10;

/**
 * What a field costs by its type, for every field that names no price of its own: one number, added to what it
 * selects (a price per item, `{ field, multiplier }`, is for pages and lists by id). A list without a page size
 * (a transfer's statusHistory or postings, a payload's fieldErrors) is priced as one object: such lists are
 * short, and a page's are read together in one statement.
 */
export function priceOfField<Context>(_args: unknown, _context: Context, field: GraphQLField<unknown, Context>) {
  const type = getNamedType(field.type);
  return isLeafType(type) || type.name === 'PageInfo' ? 0 : 1;
}

type PageArgs = { first?: number | null; last?: number | null };

/** A connection: 1, and its page size (`first`, else `last`, else its default) times what one edge selects. */
export const connectionPrice =
  (defaultSize: number) =>
  ({ first, last }: PageArgs) => ({ field: 1, multiplier: Math.max(1, first ?? last ?? defaultSize) });

/** Connection options: `edges` is free (its nodes are priced by the page size), so a page is not counted twice. */
export const edgesCountedByPage = { edgesField: { complexity: { field: 0, multiplier: 1 } } };

/** `nodes(ids:)`: one object per id asked for. */
export const nodesPrice = ({ ids }: { ids: readonly unknown[] }) => ({ field: 0, multiplier: ids.length });

type Price = number | { field?: number; multiplier?: number };
type PriceOption = Price | ((args: Record<string, unknown>, context: unknown, field: GraphQLField<unknown, unknown>) => Price);

/**
 * What one operation costs. Pothos' own count charges `__typename` 1 wherever it appears (and clients such as
 * urql ask for it in every selection), so the walk is ours; the prices are the ones each field declares
 * (`complexity`, from the options above). A fragment is priced once per type it is spread on, so a fragment
 * bomb costs a walk of the document, not of its expansion. Arguments graphql cannot read throw.
 */
export function operationPrice(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  context: unknown,
): number {
  const root = schema.getRootType(operation.operation);
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (!root || coerced.errors) return 0; // graphql reports both; there is nothing to price
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const mutation = schema.getMutationType();
  const priced = new Map<SelectionSetNode, Map<GraphQLNamedType, number>>();
  const inProgress = new Set<SelectionSetNode>();

  // A selection left out by `@skip(if: true)` or `@include(if: false)` does not run, and costs nothing.
  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, coerced.coerced)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, coerced.coerced)?.if !== false;

  const priceOfField = (node: FieldNode, parent: GraphQLNamedType): number => {
    if (node.name.value.startsWith('__') || !(isObjectType(parent) || isInterfaceType(parent))) return 0;
    const field = parent.getFields()[node.name.value];
    if (!field) return 0; // graphql reports the unknown field
    const option = field.extensions?.complexity as PriceOption | undefined;
    const price =
      typeof option === 'function' ? option(getArgumentValues(field, node, coerced.coerced), context, field as GraphQLField<unknown, unknown>) : (option ?? 0);
    const selected = node.selectionSet ? priceOfSelection(node.selectionSet, getNamedType(field.type)) : 0;
    const write = parent === mutation ? MUTATION_COST : 0;
    if (typeof price === 'number') return price + selected + write;
    // A price per item (a page, its edges, nodes by id): each item costs at least 1, whatever is selected of it.
    return (price.field ?? 0) + Math.max(0, price.multiplier ?? 1) * Math.max(1, selected) + write;
  };

  const priceOfSelection = (selectionSet: SelectionSetNode, type: GraphQLNamedType): number => {
    const known = priced.get(selectionSet)?.get(type);
    if (known !== undefined) return known;
    if (inProgress.has(selectionSet)) return 0; // a fragment cycle, which validation refuses
    inProgress.add(selectionSet);
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) total += priceOfField(selection, type);
      else {
        const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
        const on = fragment?.typeCondition ? schema.getType(fragment.typeCondition.name.value) : type;
        if (fragment && on) total += priceOfSelection(fragment.selectionSet, on);
      }
    }
    inProgress.delete(selectionSet);
    if (!priced.has(selectionSet)) priced.set(selectionSet, new Map());
    priced.get(selectionSet)!.set(type, total);
    return total;
  };

  return priceOfSelection(operation.selectionSet, root);
}
