// One text per GUARD_CONFIG value, whether it comes as a JSON string or as an object
// var: what a compiled entry (compiled.ts) compares the deployment's GUARD_CONFIG with.

/**
 * The value as JSON text with its members in order; undefined for text that is not JSON.
 *
 * @example
 * configSource('{ "issuers": [] }') === configSource({ issuers: [] }); // true
 */
export function configSource(raw: unknown): string | undefined {
  try {
    return JSON.stringify(typeof raw === 'string' ? JSON.parse(raw) : raw);
  } catch {
    return undefined;
  }
}
