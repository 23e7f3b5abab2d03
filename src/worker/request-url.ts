// The parts of the request URL the guard reads, without building a URL object
// for them: request.url is already a URL as the runtime serialises it.

/** What the guard reads of a request's URL. `URL` itself fits. */
export interface RequestTarget {
  readonly href: string;
  /** As `URL.pathname`. */
  readonly pathname: string;
  /** As `URL.search`: '' or `?` and a non-empty query. */
  readonly search: string;
}

/**
 * pathname and search of `href`, a serialised http(s) URL (`request.url`): the
 * path runs from the first `/` after `scheme://` to the first `?` or `#`, the
 * query from that `?` to the first `#`. The WHATWG URL serialiser leaves no `/`
 * in the authority (userinfo escapes it, a host cannot hold it), no `?` or `#` in
 * the path and no `#` in the query, so these are the strings `new URL(href)` gives
 * (test/worker/guard-fast-paths.test.ts checks them against the runtime's Request
 * and URL). Any other href goes through `new URL`.
 *
 * @example
 * requestTarget('https://api.example/a/b?x=1#f'); // { href, pathname: '/a/b', search: '?x=1' }
 */
export function requestTarget(href: string): RequestTarget {
  const start = href.startsWith('https://') ? 8 : href.startsWith('http://') ? 7 : -1;
  const slash = start < 0 ? -1 : href.indexOf('/', start);
  if (slash < 0) {
    const u = new URL(href);
    return { href, pathname: u.pathname, search: u.search };
  }
  let end = href.indexOf('#', slash);
  if (end < 0) end = href.length;
  let q = href.indexOf('?', slash);
  if (q < 0 || q > end) q = end;
  return { href, pathname: href.slice(slash, q), search: end - q > 1 ? href.slice(q, end) : '' };
}
