// Scopes a verified token grants: `scope` (space-separated, RFC 8693 §4.2) and
// `scp` (an array, or a space-separated string as some issuers send it).

import { ownClaim, type JWTPayload } from '../claims.js';

/**
 * Every scope the payload grants.
 * @example grantedScopes({ scope: 'read write', scp: ['admin'] }) // Set { 'read', 'write', 'admin' }
 */
export function grantedScopes(payload: JWTPayload): Set<string> {
  const out = new Set<string>();
  const add = (v: unknown): void => {
    if (typeof v === 'string') for (const s of v.split(' ')) if (s !== '') out.add(s);
  };
  // Own claims only: an inherited name is never a grant.
  add(ownClaim(payload, 'scope'));
  const scp = ownClaim(payload, 'scp');
  if (Array.isArray(scp)) scp.forEach(add);
  else add(scp);
  return out;
}

/**
 * True when the payload grants every scope in `needed`.
 * @example hasScopes({ scope: 'read' }, ['read']) // true
 */
export function hasScopes(payload: JWTPayload, needed: readonly string[]): boolean {
  if (needed.length === 0) return true;
  const granted = grantedScopes(payload);
  return needed.every((s) => granted.has(s));
}
