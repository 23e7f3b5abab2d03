// Reading the request (the token itself: src/bearer/token.ts; rules: rules.ts): whether a path
// is public, and stripping identity headers a client tried to send itself.

import type { GuardConfig } from './config.js';
import { publicFor } from './path.js';

/** Public only when every reading of the path is public (fail closed). */
export function isPublic(readings: readonly string[], config: GuardConfig): boolean {
  return publicFor(config.publicPaths, readings);
}

/**
 * Drop every header the guard sets itself (the forwardClaims headers and
 * forwardPayload), whatever the client sent, in any spelling an origin may take
 * for it: CGI, WSGI and PHP read `X_Auth_Sub` (and `X-Auth_Sub`) as `X-Auth-Sub`.
 */
export function stripIdentity(headers: Headers, config: GuardConfig): void {
  const own = new Set(config.forwardClaims.map(([, h]) => sameAsDash(h)));
  // The payload header is the guard's too: a client's `X_Jwt_Payload` must not reach the origin as a verified payload.
  if (config.forwardPayload !== undefined) own.add(sameAsDash(config.forwardPayload));
  const drop: string[] = [];
  headers.forEach((_, name) => {
    if (own.has(sameAsDash(name))) drop.push(name);
  });
  for (const name of drop) headers.delete(name);
}

function sameAsDash(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}
