/**
 * A request's path as the router matches it: no query, duplicate slashes folded (`//v1/x` is `/v1/x`). The door
 * (admission) and the REST face (error shapes, which routes need a key) must read a path the same way.
 */
export const routePath = (url: string) => url.split('?')[0]!.replace(/\/{2,}/g, '/');
