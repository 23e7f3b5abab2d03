// Which bearer tokens are introspected: every one that is not a compact JWS (three
// base64url segments) or JWE (five), so a JWT never leaves the isolate for an
// introspection endpoint and an opaque token never reaches the JWT verifier.

const SEGMENT = /^[A-Za-z0-9_-]*$/;

/**
 * True when `token` has the shape of a compact JWS or JWE: exactly two or four dots, every segment base64url
 * (no padding), the first (the protected header) not empty. Others may be empty: a JWS with an empty
 * signature, a JWE with no encrypted key (`dir`).
 *
 * @example
 * looksLikeJwt('eyJhbGciOiJIUzI1NiJ9.e30.sig'); // true
 * looksLikeJwt('2YotnFZFEjr1zCsicMWpAA'); // false: opaque, introspect it
 */
export function looksLikeJwt(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 && parts.length !== 5) return false;
  if (parts[0] === '') return false;
  return parts.every((p) => SEGMENT.test(p));
}
