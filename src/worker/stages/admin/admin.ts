// The admin endpoint: the isolate's counters as JSON, for a request that carries
// the admin secret (`x-guard-admin`). Its own section (`admin`) and its own answer;
// the chain hands a request to it before any other stage.

import { ConfigError } from '../../config-error.js';
import { absPath, section, str } from '../../config-values.js';
import type { Counters } from '../../counters.js';
import { ADMIN_KEYS } from '../../config-keys.js';
import { ADMIN_SECRET_HEADER } from '../../request.js';

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

/** An admin secret from its binding (`setting` names it in the error): at least 16 characters, or a ConfigError. */
export function adminSecret(
  env: Record<string, unknown>,
  admin: { secretBinding: string },
  setting = 'admin.secretBinding',
): string {
  const s: unknown = env[admin.secretBinding];
  if (typeof s !== 'string' || s.length < 16)
    throw new ConfigError(setting, 'the secret is not set or shorter than 16 characters');
  return s;
}

/**
 * The admin endpoint of one guard: its secret read from `env` now (a ConfigError when it is not set), its answer per
 * request.
 *
 * @example
 * const endpoint = adminEndpoint(env, config.admin, counters);
 * if (url.pathname === config.admin.path) return endpoint(request);
 */
export function adminEndpoint(
  env: Record<string, unknown>,
  admin: AdminConfig,
  counters: Counters,
): (request: Request) => Promise<Response> {
  const secret = adminSecret(env, admin);
  return (request) => adminResponse(request, secret, counters);
}

/**
 * 401 without the right secret; otherwise the counters since the isolate started.
 *
 * @example
 * if (url.pathname === config.admin.path) return adminResponse(request, secret, counters);
 */
export async function adminResponse(
  request: Request,
  secret: string | undefined,
  counters: Counters,
): Promise<Response> {
  if (!(await hasAdminSecret(request, secret))) return unauthorized();
  return new Response(JSON.stringify({ since: counters.sinceIso(), counters: counters.snapshot() }), {
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

/**
 * Whether the request's `X-Guard-Admin` header is `secret` (compared in constant time;
 * false without a secret). Every admin endpoint of the guard asks this first.
 *
 * @example
 * if (!(await hasAdminSecret(request, secret))) return unauthorized();
 */
export async function hasAdminSecret(request: Request, secret: string | undefined): Promise<boolean> {
  const want = secret ?? '';
  return want.length > 0 && (await sameSecret(request.headers.get(ADMIN_SECRET_HEADER) ?? '', want));
}

/**
 * The 401 an admin endpoint sends without the right secret (the same for a wrong and a missing one).
 *
 * @example
 * return unauthorized();
 */
export function unauthorized(): Response {
  return new Response(JSON.stringify({ error: 'unauthorized' }), {
    status: 401,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  });
}

async function sameSecret(a: string, b: string): Promise<boolean> {
  // Digest first so the comparison is over equal lengths, then compare in constant time.
  const enc = new TextEncoder();
  const [da, db] = await Promise.all([
    crypto.subtle.digest('SHA-256', enc.encode(a)),
    crypto.subtle.digest('SHA-256', enc.encode(b)),
  ]);
  // workerd's SubtleCrypto extension (not in the DOM typings); Node, Deno and Bun lack it.
  const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: (a: ArrayBuffer, b: ArrayBuffer) => boolean };
  if (typeof subtle.timingSafeEqual === 'function') return subtle.timingSafeEqual(da, db);
  // Elsewhere: every byte of the two 32-byte digests is looked at, whatever differs.
  const x = new Uint8Array(da);
  const y = new Uint8Array(db);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}
