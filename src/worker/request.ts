// Reading the request: where the token is, which rules and public paths a path
// falls under, and stripping identity headers a client tried to send itself.

import type { GuardConfig, RuleConfig, TokenSource } from './config.js';

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

/**
 * The path as the guard matches it, in two spellings: as received, and decoded
 * then re-normalised, because an origin may turn `/static/..%2Fadmin` into `/admin`.
 */
export function pathForms(pathname: string): string[] {
  let decoded = pathname;
  try {
    decoded = new URL(decodeURIComponent(pathname), 'http://path.invalid').pathname;
  } catch {
    // A malformed escape cannot be decoded by the origin either.
  }
  return decoded === pathname ? [pathname] : [pathname, decoded];
}

/** Public only when every spelling of the path is public (fail closed). */
export function isPublic(forms: readonly string[], config: GuardConfig): boolean {
  return forms.every((p) => config.publicPaths.some((pub) => matches(p, pub)));
}

/** Every rule that applies under any spelling of the path. */
export function rulesFor(forms: readonly string[], config: GuardConfig): RuleConfig[] {
  return config.rules.filter((r) => forms.some((p) => p.startsWith(r.pathPrefix)));
}

// `/health` matches `/health` only; `/static/*` matches everything under `/static/`.
function matches(pathname: string, pattern: string): boolean {
  if (pattern.endsWith('*')) return pathname.startsWith(pattern.slice(0, -1));
  return pathname === pattern;
}

/** Drop every header the guard sets itself, whatever the client sent. */
export function stripIdentity(headers: Headers, config: GuardConfig): void {
  for (const [, header] of config.forwardClaims) headers.delete(header);
}
