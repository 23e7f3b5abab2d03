// Browsers: a preflight from an allowed origin is answered here (it never
// carries a token), and every other response to an allowed origin, refusals
// included, carries the CORS headers so the page can read why it was refused.
// With cors configured every response varies by Origin (allowed or not, with or
// without one), so every response says so: a cache must never hand an answer
// made without CORS headers to an allowed origin, or the reverse.

import type { CorsConfig } from './config.js';

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
  return request.method === 'OPTIONS' && request.headers.has('origin') && request.headers.has('access-control-request-method');
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
  if (cors.exposeHeaders.length > 0) response.headers.set('access-control-expose-headers', cors.exposeHeaders.join(', '));
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
