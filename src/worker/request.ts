// Reading the request (the token itself: src/bearer/token.ts; rules: rules.ts): whether a path
// is public, and stripping identity headers a client tried to send itself.

import type { ForwardingConfig } from './stages/forward/forwarding-config.js';
import { headerNames } from './header-names.js';
import { publicFor } from './stages/path/path.js';

/** Public only when every reading of the path is public (fail closed). */
export function isPublic(readings: readonly string[], config: { readonly publicPaths: readonly string[] }): boolean {
  // No public paths: nothing is public (a path always has at least one reading).
  if (config.publicPaths.length === 0 && readings.length > 0) return false;
  return publicFor(config.publicPaths, readings);
}

/** The header that carries the admin secret (admin.ts reads it); never forwarded, in any spelling. */
export const ADMIN_SECRET_HEADER = 'x-guard-admin';

/** The guard's own header names, as sameAsDash spells them, and their lengths (a cheap first test). */
export interface IdentityHeaders {
  readonly names: ReadonlySet<string>;
  readonly lengths: ReadonlySet<number>;
}

/**
 * The headers the guard owns (the forwardClaims headers, forwardPayload, and the admin
 * secret's `x-guard-admin`), worked out once per configuration.
 *
 * @example
 * const own = identityHeaders(config);
 * stripIdentity(headers, own);
 */
export function identityHeaders(config: Pick<ForwardingConfig, 'forwardClaims' | 'forwardPayload'>): IdentityHeaders {
  const names = new Set(config.forwardClaims.map(([, h]) => sameAsDash(h)));
  // The payload header is the guard's too: a client's `X_Jwt_Payload` must not reach the origin as a verified payload.
  if (config.forwardPayload !== undefined) names.add(sameAsDash(config.forwardPayload));
  // The admin secret is for the guard's own endpoints: an origin reading `X_Guard_Admin` as it must not see it.
  names.add(ADMIN_SECRET_HEADER);
  return { names, lengths: new Set([...names].map((n) => n.length)) };
}

/**
 * Drop every header the guard sets itself, whatever the client sent, in any
 * spelling an origin may take for it: CGI, WSGI and PHP read `X_Auth_Sub` (and
 * `X-Auth_Sub`) as `X-Auth-Sub`. `names`: the names `headers` holds (Headers.keys()),
 * when the caller has them already.
 *
 * @example
 * stripIdentity(headers, identityHeaders(config)); // `X_Auth_Sub: root` is gone
 */
export function stripIdentity(
  headers: Headers,
  own: IdentityHeaders,
  names: Iterable<string> = headerNames(headers),
): void {
  if (own.names.size === 0) return;
  let drop: string[] | undefined;
  // sameAsDash keeps the length: only names as long as one of ours need the comparison.
  // Collected first, deleted after: the list is not edited while it is walked.
  for (const name of names)
    if (own.lengths.has(name.length) && own.names.has(sameAsDash(name))) (drop ??= []).push(name);
  if (drop !== undefined) for (const name of drop) headers.delete(name);
}

function sameAsDash(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}
