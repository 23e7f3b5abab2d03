// The admin endpoint: the isolate's counters as JSON, for a request that carries
// the admin secret (`x-guard-admin`). Its own section (`admin`) and its own answer;
// the chain hands a request to it before any other stage.

import { ConfigError } from './config-error.js';
import { absPath, section, str } from './config-values.js';
import type { Counters } from './counters.js';
import { ADMIN_KEYS } from './config-keys.js';

export interface AdminConfig {
  path: string;
  secretBinding: string;
}


/**
 * The `admin` section, or undefined when it is absent (no admin endpoint).
 *
 * @example
 * parseAdmin({ path: '/_guard', secretBinding: 'ADMIN_SECRET' });
 */
export function parseAdmin(v: unknown): AdminConfig | undefined {
  const a = section(v, 'admin', ADMIN_KEYS, 'expected { "path": ..., "secretBinding": ... }');
  if (a === undefined) return undefined;
  return { path: absPath(a.path, 'admin.path'), secretBinding: str(a.secretBinding, 'admin.secretBinding') };
}

/** The admin secret from its binding: at least 16 characters, or a ConfigError. */
export function adminSecret(env: Record<string, unknown>, admin: AdminConfig): string {
  const s: unknown = env[admin.secretBinding];
  if (typeof s !== 'string' || s.length < 16) throw new ConfigError('admin.secretBinding', 'the secret is not set or shorter than 16 characters');
  return s;
}

/**
 * 401 without the right secret; otherwise the counters since the isolate started.
 *
 * @example
 * if (url.pathname === config.admin.path) return adminResponse(request, secret, counters);
 */
export async function adminResponse(request: Request, secret: string | undefined, counters: Counters): Promise<Response> {
  const given = request.headers.get('x-guard-admin') ?? '';
  const want = secret ?? '';
  const ok = want.length > 0 && (await sameSecret(given, want));
  if (!ok) return new Response(JSON.stringify({ error: 'unauthorized' }), { status: 401, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  return new Response(JSON.stringify({ since: counters.sinceIso(), counters: counters.snapshot() }), {
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

async function sameSecret(a: string, b: string): Promise<boolean> {
  // Digest first so the comparison is over equal lengths, then compare in constant time.
  const enc = new TextEncoder();
  const [da, db] = await Promise.all([crypto.subtle.digest('SHA-256', enc.encode(a)), crypto.subtle.digest('SHA-256', enc.encode(b))]);
  // workerd's SubtleCrypto extension (not in the DOM typings).
  return (crypto.subtle as SubtleCrypto & { timingSafeEqual(a: ArrayBuffer, b: ArrayBuffer): boolean }).timingSafeEqual(da, db);
}
