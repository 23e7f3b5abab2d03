// Where the middleware finds the token: `Authorization: Bearer <token>` first,
// then (if configured) one named cookie. Only RFC 6750 b64token characters are
// accepted, so nothing odd travels further into the verifier.

const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export type TokenLookup =
  | { kind: 'none' }
  | { kind: 'malformed' }
  | { kind: 'token'; token: string };

/** RFC 6750 §2.1: scheme `Bearer` (case-insensitive), one space, one b64token. */
export function fromAuthorization(value: string | null | undefined): TokenLookup {
  if (value === null || value === undefined) return { kind: 'none' };
  const match = /^([A-Za-z]+) +(\S+) *$/.exec(value);
  if (match === null || match[1]!.toLowerCase() !== 'bearer' || !B64TOKEN.test(match[2]!)) return { kind: 'malformed' };
  return { kind: 'token', token: match[2]! };
}

/** The first cookie named `name` in a Cookie header (RFC 6265 §4.2.1 shape). */
export function fromCookie(header: string | null | undefined, name: string): TokenLookup {
  if (header === null || header === undefined) return { kind: 'none' };
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return value.length > 0 && B64TOKEN.test(value) ? { kind: 'token', token: value } : { kind: 'malformed' };
  }
  return { kind: 'none' };
}
