// Method-override headers: frameworks (Express's method-override, Rails, Laravel,
// Symfony, Hono's methodOverride, Spring's HiddenHttpMethodFilter...) let them turn
// a POST into a DELETE after the guard decided on POST. The guard refuses every
// request carrying one (any value, any letter case, `_` for `-` as CGI, WSGI and PHP
// read it), before a rule is matched: the method a rule saw is the method the origin
// runs.

/** The override headers, lower case with `-`. */
export const METHOD_OVERRIDE_HEADERS: ReadonlySet<string> = new Set(['x-http-method-override', 'x-http-method', 'x-method-override']);
const LENGTHS: ReadonlySet<number> = new Set([...METHOD_OVERRIDE_HEADERS].map((h) => h.length));

/** What the client is told (400 invalid_request). */
export const METHOD_OVERRIDE_REFUSED = 'Method override headers are not accepted';

/**
 * Whether the request carries a method-override header in any spelling, whatever its value.
 *
 * @example
 * hasMethodOverride(new Headers({ 'X_HTTP_Method_Override': 'DELETE' })); // true
 */
export function hasMethodOverride(headers: Headers): boolean {
  let found = false;
  headers.forEach((_, name) => {
    // Headers hands names over in lower case; only `_` is left to fold.
    if (!found && LENGTHS.has(name.length) && METHOD_OVERRIDE_HEADERS.has(name.replaceAll('_', '-'))) found = true;
  });
  return found;
}
