// The guard's own answers. Bearer refusals (401/400/403/503) come from the
// shared bearer module (src/bearer/challenge.ts); here are the gateway's own.

import type { StepUpNeed } from '../resource/step-up.js';
import {
  challengeResponse,
  DESCRIPTIONS,
  JSON_NO_STORE,
  publicDescription,
  retryAfterSeconds,
} from '../bearer/challenge.js';

export { publicDescription };

function json(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_NO_STORE });
}

/** 401 with no `error`: the request carried no bearer token at all (RFC 6750 §3.1). */
export function missingToken(realm: string): Response {
  return challengeResponse('missing', { realm });
}

/** 400: a Bearer credential that is not one b64token. */
export function malformedToken(realm: string): Response {
  return challengeResponse('invalid_request', { realm, description: DESCRIPTIONS.invalid_request });
}

export function invalidToken(realm: string, description: string): Response {
  return challengeResponse('invalid_token', { realm, description });
}

export function insufficientScope(realm: string, scopes: readonly string[], description: string): Response {
  return challengeResponse('insufficient_scope', { realm, description, scopes });
}

/** 401 `insufficient_user_authentication` (RFC 9470 §3): what the client must ask its authorization server for. */
export function stepUpNeeded(realm: string, need: StepUpNeed): Response {
  return challengeResponse('insufficient_user_authentication', { realm, acrValues: need.acr, maxAge: need.maxAge });
}

/** The issuer's keys cannot be had: not the client's fault; retry once the JWKS cooldown ends. */
export function keysUnavailable(cooldownMs: number): Response {
  return challengeResponse('unavailable', { realm: '', retryAfter: retryAfterSeconds(cooldownMs) });
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
