// The form a DPoP `htu` and a request URL are compared in (RFC 9449 §4.3: the URI
// without its query and fragment, after syntax- and scheme-based normalisation,
// RFC 3986 §6.2.2 and §6.2.3). Parsing is the WHATWG URL parser every runtime ships,
// which already lower-cases the scheme and host, drops the scheme's default port,
// resolves `.`/`..` segments (also as %2e) and makes an empty path `/`. On top of
// it, percent-escapes are normalised: hex digits upper case, and escapes of
// unreserved characters (A-Z a-z 0-9 - . _ ~) decoded. Nothing else is folded:
// the path keeps its case, a trailing slash or dot in the host still differs.

/** Longest `htu` (or request URL) compared, in characters, not counting its query and fragment. */
export const MAX_HTU_LENGTH = 8192;

/**
 * The comparison form of an absolute http(s) URL: `scheme://host[:port]/path`,
 * without userinfo, query or fragment. Undefined for anything else (a relative
 * URL, another scheme, userinfo, unparseable, or longer than MAX_HTU_LENGTH before
 * its query).
 *
 * @example
 * htuForm('HTTPS://Server.Example.COM:443/a/%7euser/./x?q=1#f'); // 'https://server.example.com/a/~user/x'
 * htuForm('ftp://server.example.com/x'); // undefined
 */
export function htuForm(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  // The query and fragment are never compared, so they count toward no bound: a request
  // with a long query is still one a proof can name. For http(s) the URL parser ends the
  // authority and the path at the first `?` or `#`, so cutting just after it parses the
  // same scheme, host and path (the `?`/`#` is kept: without it, spaces before it would be
  // trimmed as trailing ones, and `/x ?` would read as `/x` instead of `/x%20`).
  const end = value.search(/[?#]/);
  const head = end < 0 ? value : value.slice(0, end + 1);
  if (head.length > MAX_HTU_LENGTH) return undefined;
  let url: URL;
  try {
    url = new URL(head);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // A proof naming credentials names no resource a server answers for.
  if (url.username !== '' || url.password !== '') return undefined;
  return `${url.protocol}//${url.host}${percentNormalised(url.pathname)}`;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

function percentNormalised(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}
