// Browsers: a preflight from an allowed origin is answered here (it never
// carries a token), and every other response to an allowed origin, refusals
// included, carries the CORS headers so the page can read why it was refused.
// With cors configured every response varies by Origin (allowed or not, with or
// without one), so every response says so: a cache must never hand an answer
// made without CORS headers to an allowed origin, or the reverse.

import { ConfigError } from '../../config-error.js';
import { HTTP_TOKEN, num, section, strList } from '../../config-values.js';
import { CORS_KEYS } from '../../config-keys.js';

export interface CorsConfig {
  /** Exact origins (`https://app.example.com`), or `*` (not with credentials). */
  allowOrigins: string[];
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAge: number;
  credentials: boolean;
}

/**
 * The `cors` section with its defaults; undefined when it is absent (no CORS headers at all).
 *
 * @example
 * parseCors({ allowOrigins: 'https://app.example.com' })?.maxAge; // 600
 */
export function parseCors(raw: unknown): CorsConfig | undefined {
  const v = section(raw, 'cors', CORS_KEYS);
  if (v === undefined) return undefined;
  const allowOrigins = strList(v.allowOrigins, 'cors.allowOrigins');
  for (const [j, o] of allowOrigins.entries()) {
    if (o === '*') continue;
    let u: URL | undefined;
    try {
      u = new URL(o);
    } catch {
      u = undefined;
    }
    // An Origin header is scheme://host[:port] exactly; anything else would never match.
    if (u === undefined || u.origin !== o)
      throw new ConfigError(
        `cors.allowOrigins[${j}]`,
        'expected an origin such as https://app.example.com (no path, no trailing slash)',
      );
  }
  if (v.credentials !== undefined && typeof v.credentials !== 'boolean')
    throw new ConfigError('cors.credentials', 'expected true or false');
  const credentials = v.credentials === true;
  if (credentials && allowOrigins.includes('*'))
    throw new ConfigError('cors.allowOrigins', '"*" cannot be used with credentials');
  const tokens = (x: unknown, setting: string, fallback: string[]): string[] => {
    if (x === undefined) return fallback;
    const list = strList(x, setting, true);
    for (const [j, t] of list.entries())
      if (!HTTP_TOKEN.test(t)) throw new ConfigError(`${setting}[${j}]`, 'not a valid name');
    return list;
  };
  return {
    allowOrigins,
    allowMethods: tokens(v.allowMethods, 'cors.allowMethods', ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']).map(
      (m) => m.toUpperCase(),
    ),
    allowHeaders: tokens(v.allowHeaders, 'cors.allowHeaders', ['Authorization', 'Content-Type']),
    exposeHeaders: tokens(v.exposeHeaders, 'cors.exposeHeaders', ['WWW-Authenticate', 'Server-Timing']),
    maxAge: num(v.maxAge, 'cors.maxAge', 600, 0, 86_400),
    credentials,
  };
}

/** The allowed Origin value of this request, or undefined (not configured, absent, not listed). */
export function allowedOrigin(cors: CorsConfig | undefined, request: Request): string | undefined {
  if (cors === undefined) return undefined;
  const origin = request.headers.get('origin');
  if (origin === null) return undefined;
  if (cors.allowOrigins.includes(origin)) return origin;
  return cors.allowOrigins.includes('*') ? '*' : undefined;
}

/** OPTIONS with Origin and Access-Control-Request-Method (Fetch standard, CORS-preflight request). */
export function isPreflight(request: Request): boolean {
  return (
    request.method === 'OPTIONS' &&
    request.headers.has('origin') &&
    request.headers.has('access-control-request-method')
  );
}

/** 204 with what the browser asked about, limited to what the configuration allows. */
export function preflightResponse(cors: CorsConfig, origin: string): Response {
  const headers = new Headers();
  baseHeaders(headers, cors, origin);
  headers.set('access-control-allow-methods', cors.allowMethods.join(', '));
  if (cors.allowHeaders.length > 0) headers.set('access-control-allow-headers', cors.allowHeaders.join(', '));
  headers.set('access-control-max-age', String(cors.maxAge));
  return new Response(null, { status: 204, headers });
}

/**
 * Add the CORS headers for an allowed `origin` to a response (its headers must be
 * mutable); for any other request (origin undefined) only `Vary: Origin`.
 *
 * @example
 * withCors(res, cors, allowedOrigin(cors, request)); // Vary: Origin whatever the request's Origin
 */
export function withCors(response: Response, cors: CorsConfig, origin: string | undefined): Response {
  if (origin === undefined) {
    varyOrigin(response.headers);
    return response;
  }
  baseHeaders(response.headers, cors, origin);
  if (cors.exposeHeaders.length > 0)
    response.headers.set('access-control-expose-headers', cors.exposeHeaders.join(', '));
  return response;
}

function baseHeaders(headers: Headers, cors: CorsConfig, origin: string): void {
  headers.set('access-control-allow-origin', origin);
  if (cors.credentials) headers.set('access-control-allow-credentials', 'true');
  varyOrigin(headers);
}

/** The answer depends on Origin (even with `*`: a request without Origin gets no CORS headers). */
function varyOrigin(headers: Headers): void {
  if (!varies(headers.get('vary'))) headers.append('vary', 'Origin');
}

/** Whether a Vary value already covers Origin (listed, or `*`): the origin's own Vary is kept, not repeated. */
function varies(vary: string | null): boolean {
  if (vary === null) return false;
  return vary.split(',').some((v) => {
    const name = v.trim().toLowerCase();
    return name === 'origin' || name === '*';
  });
}
