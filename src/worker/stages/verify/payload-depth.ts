// A verified payload is JSON an issuer signed, but an issuer that copies user-editable
// JSON into tokens signs whatever a user nests. Thousands of levels make every
// JSON.stringify after the verify throw (forwardPayload, the KV verify-cache write,
// the origin assertion): a 500 and an error log line per request. The guard refuses
// such a payload once, right after the verify, before anything serialises it.

import { JwtError } from '../../../errors.js';

/** Deepest JSON nesting a verified payload may have (the payload object itself is level 1). Real IdPs use a handful. */
export const MAX_PAYLOAD_DEPTH = 64;

/**
 * Whether a JSON value nests objects or arrays deeper than `max` levels. Iterative (no
 * recursion, so any depth is safe to ask about) and stops at the first level too deep;
 * each object or array is visited once, so a normal payload (a few dozen values) costs
 * about as much as reading its keys.
 *
 * @example
 * nestedDeeperThan({ a: [1] }, 2); // false
 * nestedDeeperThan({ a: [[1]] }, 2); // true
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // Parallel stacks of containers and their depth: no tuple allocated per value.
  const items: object[] = [value];
  const depths: number[] = [1];
  while (items.length > 0) {
    const o = items.pop()!;
    const d = depths.pop()!;
    if (d > max) return true;
    // An array's items, or an object's own values (a parsed payload has no getters).
    const values: unknown[] = Array.isArray(o) ? o : Object.values(o);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v === 'object' && v !== null) {
        items.push(v);
        depths.push(d + 1);
      }
    }
  }
  return false;
}

/**
 * Throw `ERR_JWT_PAYLOAD_INVALID` (a 401 `invalid_token`, logged with that code) for a
 * verified payload nested deeper than MAX_PAYLOAD_DEPTH; call it before the payload is
 * cached or serialised.
 *
 * @example
 * refuseDeepPayload(result.payload); // throws for 65 nested lists
 */
export function refuseDeepPayload(payload: unknown): void {
  if (nestedDeeperThan(payload, MAX_PAYLOAD_DEPTH))
    throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: `nested deeper than ${MAX_PAYLOAD_DEPTH} levels` });
}
