// Where a bearer token is found: `Authorization: Bearer <token>`, a custom
// header carrying the bare token, or a named cookie. One reading for the guard
// and the Hono middleware. Only RFC 6750 b64token characters pass, so nothing
// odd travels further into the verifier.

const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * What one place in the request holds. `none`: nothing for us (absent, empty cookie,
 * or another scheme such as Basic — RFC 6750 §3.1 answers those with a bare challenge);
 * `malformed`: a Bearer credential that is not one b64token (answered 400 invalid_request).
 */
export type TokenLookup = { kind: 'none' } | { kind: 'malformed' } | { kind: 'token'; token: string; scheme?: 'dpop' };

/** A place to read the token from, as in the guard's `tokenSources`. */
export type TokenSource = { header: string } | { cookie: string };

const NONE: TokenLookup = { kind: 'none' };
const MALFORMED: TokenLookup = { kind: 'malformed' };

/**
 * RFC 6750 §2.1: scheme `Bearer` (any case), spaces, one b64token. Another scheme is `none`,
 * and so is `DPoP` (RFC 9449 §7.1) unless `dpop` is set: a reader that checks no proof
 * must never take a DPoP-scheme token for a bearer one.
 * @example fromAuthorization('Bearer eyJ...') // { kind: 'token', token: 'eyJ...' }
 * @example fromAuthorization('DPoP eyJ...', true) // { kind: 'token', token: 'eyJ...', scheme: 'dpop' }
 */
export function fromAuthorization(value: string | null | undefined, dpop = false): TokenLookup {
  if (value === null || value === undefined) return NONE;
  // The usual spelling, `Bearer <b64token>`: what the steps below return for it, in one test.
  if (value.startsWith('Bearer ')) {
    const rest = value.slice(7);
    if (B64TOKEN.test(rest)) return { kind: 'token', token: rest };
  }
  const v = value.trim();
  if (v === '') return NONE;
  const space = v.search(/\s/);
  const scheme = space < 0 ? v : v.slice(0, space);
  const lower = scheme.toLowerCase();
  const isDpop = dpop && lower === 'dpop';
  if (lower !== 'bearer' && !isDpop) return NONE;
  const rest = space < 0 ? '' : v.slice(space).replace(/^ +/, '');
  if (!B64TOKEN.test(rest)) return MALFORMED;
  return isDpop ? { kind: 'token', token: rest, scheme: 'dpop' } : { kind: 'token', token: rest };
}

/**
 * A custom header (`X-Token`): the bare token, or `Bearer <token>` as well.
 * @example fromCustomHeader('eyJ...') // { kind: 'token', token: 'eyJ...' }
 */
export function fromCustomHeader(value: string | null | undefined): TokenLookup {
  if (value === null || value === undefined) return NONE;
  const v = value.trim();
  if (v === '') return NONE;
  if (/^bearer\s/i.test(v) || v.toLowerCase() === 'bearer') return fromAuthorization(v);
  return B64TOKEN.test(v) ? { kind: 'token', token: v } : MALFORMED;
}

/**
 * The first cookie named `name` in a Cookie header (RFC 6265 §4.2.1 shape), quotes removed.
 * An empty value (what a logout leaves behind) is `none`.
 * @example fromCookie('theme=dark; session=eyJ...', 'session') // { kind: 'token', token: 'eyJ...' }
 */
export function fromCookie(header: string | null | undefined, name: string): TokenLookup {
  if (header === null || header === undefined) return NONE;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value === '') return NONE;
    return B64TOKEN.test(value) ? { kind: 'token', token: value } : MALFORMED;
  }
  return NONE;
}

/** Anything with a case-insensitive `get`, as `Headers` and Hono's `c.req.header`. */
export interface HeaderReader {
  get(name: string): string | null | undefined;
}

/**
 * The first source that holds something decides: a malformed header is not
 * rescued by a good cookie (the client meant the header). With `dpop`, the
 * Authorization source also reads the `DPoP` scheme (the lookup says so).
 * @example findToken(request.headers, [{ header: 'Authorization' }, { cookie: 'session' }])
 */
export function findToken(headers: HeaderReader, sources: readonly TokenSource[], dpop = false): TokenLookup {
  for (const s of sources) {
    let found: TokenLookup;
    if ('cookie' in s) found = fromCookie(headers.get('cookie'), s.cookie);
    else if (s.header.toLowerCase() === 'authorization') found = fromAuthorization(headers.get(s.header), dpop);
    else found = fromCustomHeader(headers.get(s.header));
    if (found.kind !== 'none') return found;
  }
  return NONE;
}

/** Drop the credential from headers bound for an origin (forwardToken: false). */
export function dropToken(headers: Headers, sources: readonly TokenSource[]): void {
  for (const s of sources) {
    if ('header' in s) {
      headers.delete(s.header);
      continue;
    }
    const cookie = headers.get('cookie');
    if (cookie === null) continue;
    const kept = cookie
      .split(';')
      .filter((part) => {
        const eq = part.indexOf('=');
        return eq < 0 || part.slice(0, eq).trim() !== s.cookie;
      })
      .map((p) => p.trim())
      .filter((p) => p !== '');
    if (kept.length === 0) headers.delete('cookie');
    else headers.set('cookie', kept.join('; '));
  }
}
