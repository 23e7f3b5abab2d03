// The guard's own answers (RFC 6750 §3): fixed public texts, quoted-string
// values escaped, JSON bodies, and never any part of the token.

import type { JwtErrorCode } from '../errors.js';

/** RFC 7230 quoted-string: backslash-escape `"` and `\`; drop anything that is not printable ASCII. */
export function quote(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

function json(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** What the client is told about a bad token: coarse on purpose; the code goes to the log. */
export function publicDescription(code: JwtErrorCode | undefined): string {
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'The access token expired';
    case 'ERR_JWT_NOT_YET_VALID':
      return 'The access token is not valid yet';
    default:
      return 'The access token is invalid';
  }
}

/** 401 with no `error`: the request carried no token at all (RFC 6750 §3.1). */
export function missingToken(realm: string): Response {
  return json(401, { error: 'unauthorized', error_description: 'An access token is required' }, { 'www-authenticate': `Bearer realm=${quote(realm)}` });
}

export function invalidToken(realm: string, description: string): Response {
  return json(401, { error: 'invalid_token', error_description: description }, {
    'www-authenticate': `Bearer realm=${quote(realm)}, error="invalid_token", error_description=${quote(description)}`,
  });
}

export function insufficientScope(realm: string, scopes: readonly string[], description: string): Response {
  const scope = scopes.length > 0 ? `, scope=${quote(scopes.join(' '))}` : '';
  return json(403, { error: 'insufficient_scope', error_description: description }, {
    'www-authenticate': `Bearer realm=${quote(realm)}, error="insufficient_scope", error_description=${quote(description)}${scope}`,
  });
}

/** The issuer's keys cannot be had: not the client's fault, try again shortly. */
export function keysUnavailable(retryAfterSeconds: number): Response {
  return json(503, { error: 'temporarily_unavailable', error_description: 'Signing keys are unavailable' }, { 'retry-after': String(retryAfterSeconds) });
}

/** 400: the request itself is refused (a path with several readings, a body the method cannot carry). */
export function badRequest(description: string): Response {
  return json(400, { error: 'invalid_request', error_description: description });
}

/** The origin could not be reached; the request was authorised. */
export function badGateway(): Response {
  return json(502, { error: 'bad_gateway', error_description: 'The origin could not be reached' });
}

/** Misconfiguration or an unexpected fault: the log line says which. */
export function serverError(): Response {
  return json(500, { error: 'server_error', error_description: 'The gateway is misconfigured or failed' });
}
