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
    // Index and key loops: no array of values is allocated per object (measured: cheaper than Object.values).
    if (Array.isArray(o)) {
      for (let i = 0; i < o.length; i++) freezeChild(o[i], stack);
    } else {
      const keys = Object.keys(o);
      for (let i = 0; i < keys.length; i++) freezeChild((o as Record<string, unknown>)[keys[i]!], stack);
    }
  }
  return value;
}

function freezeChild(v: unknown, stack: object[]): void {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v) && !ArrayBuffer.isView(v)) {
    Object.freeze(v);
    stack.push(v);
  }
}
