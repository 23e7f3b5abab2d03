// Method overrides: frameworks (Express's method-override, Rails, Laravel, Symfony,
// Hono's methodOverride, Spring's HiddenHttpMethodFilter...) let a header or a
// `_method` parameter turn a POST into a DELETE after the guard decided on POST. The
// guard refuses every request carrying an override header (any value, any letter
// case, `_` for `-` as CGI, WSGI and PHP read it) or a `_method` query parameter
// (Laravel and Symfony read the query too, Spring's getParameter does, Express's
// methodOverride('_method') reads only the query), before a rule is matched: the
// method a rule saw is the method the origin runs. A `_method` field in a form body
// is not seen here (the body is never read): docs/deploy.md says so.

import { headerNames } from '../../header-names.js';

/** The override headers, lower case with `-`. */
export const METHOD_OVERRIDE_HEADERS: ReadonlySet<string> = new Set([
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
]);
const LENGTHS: ReadonlySet<number> = new Set([...METHOD_OVERRIDE_HEADERS].map((h) => h.length));

/** The override parameter, as the frameworks above name it. */
export const METHOD_OVERRIDE_PARAM = '_method';

/** What the client is told (400 invalid_request). */
export const METHOD_OVERRIDE_REFUSED = 'Method overrides are not accepted';

/**
 * Whether the request carries a method override: a header in any spelling, whatever
 * its value, or (given the query, `?…` as URL.search) a `_method` parameter.
 * `names`: the names `headers` holds (Headers.keys()), when the caller has them already.
 *
 * @example
 * hasMethodOverride(new Headers({ 'X_HTTP_Method_Override': 'DELETE' })); // true
 * hasMethodOverride(new Headers(), '?id=1&_method=DELETE'); // true
 */
export function hasMethodOverride(
  headers: Headers,
  search = '',
  names: Iterable<string> = headerNames(headers),
): boolean {
  // keys(), not forEach: it stops at the first override and builds no callback per request.
  // Headers hands names over in lower case; only `_` is left to fold.
  for (const name of names)
    if (LENGTHS.has(name.length) && METHOD_OVERRIDE_HEADERS.has(name.replaceAll('_', '-'))) return true;
  return queryOverride(search);
}

/**
 * Whether a query names `_method` as any parser an origin may use reads names: split
 * on `&` or `;`, `+` and `%XX` decoded, then PHP's renaming (leading spaces dropped;
 * space, `.` and `[` made `_`), letter case ignored, `_method` alone or before `[`.
 */
function queryOverride(search: string): boolean {
  // Cheap test first: without `ethod` or an escape no name can read `_method`.
  if (search.length === 0 || !/ethod|%/i.test(search)) return false;
  for (const pair of search.replace(/^\?/, '').split(/[&;]/)) {
    const eq = pair.indexOf('=');
    const name = phpName(decodeName(eq < 0 ? pair : pair.slice(0, eq))).toLowerCase();
    if (name === METHOD_OVERRIDE_PARAM || name.startsWith(`${METHOD_OVERRIDE_PARAM}[`)) return true;
  }
  return false;
}

/** `+` as space and every well-formed `%XX` decoded (bytes above 0x7f stay escaped: no name needs them). */
function decodeName(raw: string): string {
  return raw
    .replaceAll('+', ' ')
    .replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * How PHP names a query parameter: leading spaces dropped, then space, `.` and the first `[` without `]` read as `_`.
 */
function phpName(name: string): string {
  const trimmed = name.replace(/^ +/, '');
  return trimmed.replace(/[ .]/g, '_').replace(/^([^[]*)\[(?![^\]]*\])/, '$1_');
}
