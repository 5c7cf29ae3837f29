/** Every id of Ramp is a UUID; either letter case is the same id. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id is treated as an unknown one: both answer 404. */
export const isUuid = (id: string) => UUID_PATTERN.test(id);
