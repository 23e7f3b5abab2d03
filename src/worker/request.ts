// Reading the request (the token itself: src/bearer/token.ts): which rules and public paths a path
// falls under, and stripping identity headers a client tried to send itself.

import type { GuardConfig, RuleConfig } from './config.js';

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
