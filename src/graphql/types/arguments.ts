/**
 * GraphQL tells an argument sent as `null` from one left out; the use cases' optional fields know only `undefined`,
 * so an explicit `null` means "not given" to them.
 */
export const undefinedIfNull = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** An input with every `null` (at any depth) as `undefined`, so it can go to a use case as it is. */
export type WithoutNulls<T> = T extends null
  ? undefined
  : T extends readonly (infer U)[]
    ? WithoutNulls<U>[]
    : T extends object
      ? { [K in keyof T]: WithoutNulls<T[K]> }
      : T;

export function withoutNulls<T>(value: T): WithoutNulls<T> {
  if (value === null) return undefined as WithoutNulls<T>;
  if (Array.isArray(value)) return value.map(withoutNulls) as WithoutNulls<T>;
  if (typeof value !== 'object' || value instanceof Date) return value as WithoutNulls<T>;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutNulls(v)])) as WithoutNulls<T>;
}
