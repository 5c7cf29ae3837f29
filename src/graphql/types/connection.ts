import { type DefaultConnectionArguments, resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { type GraphQLResolveInfo, getNamedType } from 'graphql';
import type { CursorBinding, KeysetPage, Position } from '../../platform/reads/pagination.js';
import { builder } from '../builder.js';
import { type GraphQLContext, scopeOf } from '../context.js';
import { connectionPrice, edgesCountedByPage } from '../guards/prices.js';

/** Page sizes every connection accepts: `first` and `last` between 0 and 100. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

const inRange = (n: number | null | undefined) => n == null || (n >= 0 && n <= MAX_PAGE_SIZE);

type PageArgs = { first?: number | null; last?: number | null };

const sizeRule = (arg: keyof PageArgs): [(args: PageArgs) => boolean, { message: string; path: string[] }] => [
  (args) => inRange(args[arg]),
  { message: `must be between 0 and ${MAX_PAGE_SIZE}`, path: [arg] },
];

/** The `validate` option of every connection field: a ValidationError naming `first` or `last` before anything runs. */
export const pageSizeRule = () => [sizeRule('first'), sizeRule('last')];

/**
 * What every connection field shares: the page-size rule, a cost that multiplies by the page size, and
 * nullability. A page can fail on its own arguments (a size out of range, a cursor of another list),
 * which only execution knows: that failure is the connection's error, and the connection's null must
 * not take its parent, or the whole answer, with it.
 */
export const connectionFieldOptions = (defaultSize = DEFAULT_PAGE_SIZE) => ({
  nullable: true as const,
  validate: pageSizeRule(),
  complexity: connectionPrice(defaultSize),
});

/** What a connection can list: an object type of the schema. */
type ConnectionNode = Parameters<typeof builder.connectionObject>[0]['type'];

/**
 * One named connection per node type (`TransferConnection`, `TransferEdge`), reused wherever that
 * node is listed, so a client writes one fragment for every list of it. `totalCount` counts
 * every node the filters match (not just the page); it is computed only when selected.
 */
export function nodeConnection<Node extends ConnectionNode>(node: Node, name: string) {
  return builder.connectionObject(
    {
      type: node,
      name: `${name}Connection`,
      description: `A page of ${name} nodes, with cursors to page on (Relay cursor connections)`,
      // The page size is counted on the connection field, so `edges` adds nothing.
      ...edgesCountedByPage,
      fields: (t) => ({
        totalCount: t.int({
          description: 'How many nodes the filters match, across every page',
          resolve: (connection) => {
            if (!connection.totalCount) throw new Error(`${name}Connection resolved without totalCount`);
            return connection.totalCount();
          },
        }),
      }),
    },
    { name: `${name}Edge`, description: `One ${name} in a page of ${name}Connection, with its cursor` },
  );
}

const noCursor = () => '';

/** An edge whose cursor is encoded when a client asks for it: most pages select nodes only. */
class Edge<N> {
  constructor(
    readonly node: N,
    private readonly toCursor: (node: N) => string,
  ) {}

  get cursor(): string {
    return this.toCursor(this.node);
  }
}

/**
 * A page's cursors made all at once when the first is asked for (a client that asks for one edge's cursor asks
 * for every edge's), through `cursors`, which makes a page's for about the cost of one.
 */
export function pageOfCursors<N>(cursors: (nodes: readonly N[]) => string[]): (node: N, page: readonly N[]) => string {
  let made: Map<N, string> | null = null;
  return (node, page) => {
    made ??= new Map(cursors(page).map((cursor, i) => [page[i]!, cursor]));
    return made.get(node) ?? cursors([node])[0]!;
  };
}

/**
 * One page of a connection, by keyset, as the Relay spec describes it: `first` then `last` when
 * both are given, `first: 0` an empty page that still says whether nodes follow, and `null`
 * cursors on an empty page. `count` answers `totalCount` (only run when a client selects it).
 */
export async function resolvePage<N>(
  args: DefaultConnectionArguments,
  toCursor: ((node: N) => string) | { ofPage: (node: N, page: readonly N[]) => string },
  load: (page: ResolveCursorConnectionArgs) => Promise<N[]>,
  options: { defaultSize?: number; count?: () => Promise<number> } = {},
) {
  const bothSizes = args.first != null && args.last != null;
  const connection = await resolveCursorConnection(
    { args: bothSizes ? { ...args, last: null } : args, toCursor: noCursor, defaultSize: options.defaultSize ?? DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE },
    load,
  );
  const nodes = connection.edges.map((edge) => edge!.node);
  const cursorOf = typeof toCursor === 'function' ? toCursor : (node: N) => toCursor.ofPage(node, nodes);
  let edges = nodes.map((node) => new Edge(node, cursorOf));
  let { hasPreviousPage } = connection.pageInfo;
  if (bothSizes && edges.length > (args.last ?? 0)) {
    edges = edges.slice(edges.length - (args.last ?? 0));
    hasPreviousPage = true;
  }
  return {
    edges,
    pageInfo: {
      ...connection.pageInfo,
      hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount: options.count,
  };
}

/** The position of a row that is itself positioned (has its createdAt and id), for resolveKeysetPage. */
export const ownPosition = (row: Position): Position => row;

/**
 * A page of a list ordered by (created_at, id), the keyset lists of every module but events. Its cursors
 * are sealed to the caller and to the connection the field answers (`TransferConnection` for `transfers`
 * and `Customer.transfers` alike: one order, one list of places), so a cursor of another connection is
 * refused here, as `invalid_cursor` on this field's `after` or `before`, before anything is read.
 */
export function resolveKeysetPage<N>(
  ctx: GraphQLContext,
  info: GraphQLResolveInfo,
  args: DefaultConnectionArguments,
  positionOf: (node: N) => Position,
  load: (page: KeysetPage) => Promise<N[]>,
  options: { defaultSize?: number; count?: () => Promise<number> } = {},
) {
  const { actor } = scopeOf(ctx);
  const binding: CursorBinding = { partnerId: actor.partnerId, environment: actor.environment, list: getNamedType(info.returnType).name };
  const after = args.after == null ? null : ctx.pageCursors.positionOf(binding, args.after, '/after');
  const before = args.before == null ? null : ctx.pageCursors.positionOf(binding, args.before, '/before');
  return resolvePage(
    args,
    { ofPage: pageOfCursors((nodes: readonly N[]) => ctx.pageCursors.cursorsOf(binding, nodes.map(positionOf))) },
    (page) => load({ ...page, after, before }),
    options,
  );
}
