// Results that are shared between callers (the verify cache, the parsed-header
// cache) are frozen all the way down, so one caller's `payload.roles.push(...)`
// cannot change what the next caller of the same token is told.

/**
 * Freeze `value` and every object and array reachable from it (JSON data: no
 * cycles, no typed arrays). Iterative, so a deeply nested payload cannot exhaust
 * the stack. Already-frozen subtrees are not walked again.
 *
 * @example
 * const p = deepFreeze({ roles: ['user'] });
 * Object.isFrozen(p.roles); // true
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  const stack: object[] = [value as object];
  Object.freeze(value);
  while (stack.length > 0) {
    const o = stack.pop()!;
    for (const v of Object.values(o)) {
      if (typeof v === 'object' && v !== null && !Object.isFrozen(v) && !ArrayBuffer.isView(v)) {
        Object.freeze(v);
        stack.push(v);
      }
    }
  }
  return value;
}
