// An introspection answer (RFC 7662 §2.2) read as hostile input: a JSON object whose
// `active` is the boolean true or false (anything else is no answer), and for an
// active token the members the guard checks, each of its registered type. The
// result is a claims object in the shape a verified JWT's payload has, so the same
// claim checks (rules, scopes, audience, sender constraint) run on both.

import type { JWTPayload } from '../claims.js';
import { deepFreeze } from '../freeze.js';
import { IntrospectionError } from './error.js';

/** A verdict: inactive, or active with its claims. */
export type Introspection = { readonly active: false } | { readonly active: true; readonly claims: JWTPayload };

/** The one inactive verdict (shared: it carries nothing). */
export const INACTIVE: Introspection = Object.freeze({ active: false });

const STRINGS = ['sub', 'client_id', 'scope', 'jti', 'username', 'token_type', 'acr'] as const;
const TIMES = ['nbf', 'iat', 'auth_time'] as const;

function invalid(reason: string): IntrospectionError {
  return new IntrospectionError('ERR_INTROSPECTION_INVALID', reason);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Read an answer's text. `issuer`: the issuer whose endpoint answered; an active answer's `iss` must be it,
 * and an answer without `iss` gets it. An active answer must carry a finite `exp` (the cache is bounded by
 * it, as a JWT's lifetime is); `aud` must be a string or an array of strings; `cnf` an object; the other
 * registered members (`sub`, `client_id`, `scope`, `nbf`, ...) of their type. Every other member is kept as
 * sent, `active` dropped. Throws ERR_INTROSPECTION_INVALID otherwise.
 *
 * @example
 * readAnswer('{"active":true,"exp":1900000000,"scope":"read"}', 'https://as.example');
 * // { active: true, claims: { exp: 1900000000, scope: 'read', iss: 'https://as.example' } }
 */
export function readAnswer(text: string, issuer: string): Introspection {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid('not JSON');
  }
  if (!isObject(body)) throw invalid('not a JSON object');
  const active = Object.hasOwn(body, 'active') ? body.active : undefined;
  // RFC 7662 §2.2: a boolean. "true", 1 or a missing member is no verdict at all, never an active token.
  if (active === false) return INACTIVE;
  if (active !== true) throw invalid('active is not a boolean');
  const claims: Record<string, unknown> = { ...body };
  delete claims.active;
  const own = (name: string): unknown => (Object.hasOwn(claims, name) ? claims[name] : undefined);
  if (!isTime(own('exp'))) throw invalid('exp missing or not a finite number');
  for (const name of TIMES) {
    if (own(name) !== undefined && !isTime(own(name))) throw invalid(`${name} is not a finite number`);
  }
  for (const name of STRINGS) {
    if (own(name) !== undefined && typeof own(name) !== 'string') throw invalid(`${name} is not a string`);
  }
  const aud = own('aud');
  const audList = Array.isArray(aud) && aud.every((a) => typeof a === 'string');
  if (aud !== undefined && typeof aud !== 'string' && !audList) {
    throw invalid('aud is not a string or an array of strings');
  }
  if (own('cnf') !== undefined && !isObject(own('cnf'))) throw invalid('cnf is not an object');
  const iss = own('iss');
  // The endpoint speaks for its own issuer only: vouching for another's token is a broken or hostile server.
  if (iss !== undefined && iss !== issuer) throw invalid('iss names another issuer');
  claims.iss = issuer;
  return Object.freeze({ active: true, claims: deepFreeze(claims) as JWTPayload });
}
