import type { RecordedAddress } from './address.js';

/** What erased personal data reads as, wherever a field cannot simply become null. */
export const REDACTED = '[redacted]';

/** An address with its personal lines erased; the country stays (it identifies no one, and rails and rules read it). */
export function redactedAddress<A extends RecordedAddress>(address: A): A {
  return {
    ...address,
    city: REDACTED,
    street_line_1: REDACTED,
    ...(address.postal_code !== undefined && { postal_code: REDACTED }),
    ...(address.state !== undefined && { state: REDACTED }),
  };
}

/**
 * The values of an address looked for in copies kept elsewhere: the street and postal code. A city or
 * state alone identifies no one, and searching for it would blank a bank's own address in the same row.
 */
export const addressValues = (address: RecordedAddress | null | undefined): string[] => (address ? [address.street_line_1, address.postal_code ?? ''] : []);
