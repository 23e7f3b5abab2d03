// An issuer's `introspection` section of GUARD_CONFIG (RFC 7662): where opaque tokens
// are asked about and with which client. The endpoint follows `jwksUrl`'s rule (https,
// http only on loopback); the secret is named by a binding, never written in the config.

import { ConfigError } from '../worker/config-error.js';
import { INTROSPECTION_KEYS } from '../worker/config-keys.js';
import { httpUrl, num, section, str } from '../worker/config-values.js';
import { DEFAULT_CACHE_MS, DEFAULT_TIMEOUT_MS } from './client.js';

/** The checked section; the stage reads `env[secretBinding]` and calls createIntrospector with it. */
export interface IntrospectionSettings {
  readonly endpoint: string;
  readonly clientId: string;
  readonly secretBinding: string;
  readonly cacheMs: number;
  readonly timeoutMs: number;
}

/**
 * `issuers[i].introspection`, or undefined when absent. `at` is the issuer's setting path.
 *
 * @example
 * const endpoint = 'https://as.example/introspect';
 * parseIntrospection({ endpoint, clientId: 'guard', secretBinding: 'AS_SECRET' }, 'issuers[0]');
 * // { endpoint, clientId: 'guard', secretBinding: 'AS_SECRET', cacheMs: 30000, timeoutMs: 3000 }
 */
export function parseIntrospection(v: unknown, at: string): IntrospectionSettings | undefined {
  const where = `${at}.introspection`;
  const s = section(v, where, INTROSPECTION_KEYS, 'expected { endpoint, clientId, secretBinding }');
  if (s === undefined) return undefined;
  const endpoint = httpUrl(s.endpoint, `${where}.endpoint`);
  if (new URL(endpoint).hash !== '') throw new ConfigError(`${where}.endpoint`, 'an endpoint has no fragment');
  return Object.freeze({
    endpoint,
    clientId: str(s.clientId, `${where}.clientId`),
    secretBinding: str(s.secretBinding, `${where}.secretBinding`),
    // Up to an hour: a revoked token is honoured for at most cacheMs, so the cap bounds the damage.
    cacheMs: num(s.cacheMs, `${where}.cacheMs`, DEFAULT_CACHE_MS, 0, 3_600_000),
    timeoutMs: num(s.timeoutMs, `${where}.timeoutMs`, DEFAULT_TIMEOUT_MS, 100, 30_000),
  });
}
