/** Page sizes every connection accepts: `first` and `last` between 0 and 100. */
export const MAX_PAGE_SIZE = 100;

const inRange = (n: number | null | undefined) => n == null || (n >= 0 && n <= MAX_PAGE_SIZE);

type PageArgs = { first?: number | null; last?: number | null };

/** The `validate` option of every connection field (a validation error before anything runs). */
export const pageSizeRule = (): [(args: PageArgs) => boolean, { message: string }] => [
  (args) => inRange(args.first) && inRange(args.last),
  { message: `first and last must be between 0 and ${MAX_PAGE_SIZE}` },
];
