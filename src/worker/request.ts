// Reading the request: where the token is, which rules and public paths a path
// falls under, and stripping identity headers a client tried to send itself.

import type { GuardConfig, RuleConfig, TokenSource } from './config.js';
import { publicFor, ruleApplies } from './path.js';

/** The token from the first source present, or undefined when none carries one. */
export function extractToken(headers: Headers, sources: readonly TokenSource[]): string | undefined {
  for (const s of sources) {
    const t = 'header' in s ? fromHeader(headers.get(s.header), s.header) : fromCookie(headers.get('cookie'), s.cookie);
    if (t !== undefined) return t;
  }
  return undefined;
}

function fromHeader(value: string | null, name: string): string | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  // RFC 6750 §2.1: `Bearer` (any case), one or more spaces, then the token.
  const m = /^bearer +(\S+)$/i.exec(v);
  if (m !== null) return m[1];
  // Another scheme (Basic, ...) in Authorization is not ours to read; a custom header may carry the bare token.
  if (name.toLowerCase() === 'authorization' || /\s/.test(v) || v.length === 0) return undefined;
  return v;
}

function fromCookie(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let v = part.slice(eq + 1).trim();
    if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
    return v.length > 0 ? v : undefined;
  }
  return undefined;
}

/** Public only when every reading of the path is public (fail closed). */
export function isPublic(readings: readonly string[], config: GuardConfig): boolean {
  return publicFor(config.publicPaths, readings);
}

/** Every rule that applies under any reading of the path. */
export function rulesFor(readings: readonly string[], config: GuardConfig): RuleConfig[] {
  return config.rules.filter((r) => ruleApplies(r.pathPrefix, readings, config.paths.caseSensitive));
}

/**
 * Drop every header the guard sets itself, whatever the client sent, in any
 * spelling an origin may take for it: CGI, WSGI and PHP read `X_Auth_Sub` (and
 * `X-Auth_Sub`) as `X-Auth-Sub`.
 */
export function stripIdentity(headers: Headers, config: GuardConfig): void {
  const own = new Set(config.forwardClaims.map(([, h]) => sameAsDash(h)));
  const drop: string[] = [];
  headers.forEach((_, name) => {
    if (own.has(sameAsDash(name))) drop.push(name);
  });
  for (const name of drop) headers.delete(name);
}

function sameAsDash(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}
