// The forwarding settings: where authorised requests go (`origin`), which verified
// claims travel as headers (`forwardClaims`), the whole payload (`forwardPayload`)
// and whether the credential stays on the request (`forwardToken`). forward.ts runs them.

import { ConfigError } from '../../config-error.js';
import { HTTP_TOKEN, httpUrl, isObject, knownKeys, str } from '../../config-values.js';

/** Where authorised requests go: a URL, the built-in echo, or a service binding. */
export type OriginConfig = string | { service: string } | undefined;

/** The origin value that answers with a JSON echo of the forwarded request (dev, demos). */
export const ECHO_ORIGIN = 'builtin:echo';

// Headers the guard must never let a claim overwrite.
const RESERVED_HEADERS = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'server-timing',
]);

export interface ForwardingConfig {
  forwardClaims: [claim: string, header: string][];
  /** Header that carries base64url(JSON payload) to the origin (Envoy's forward_payload_header). */
  forwardPayload: string | undefined;
  /** Keep the credential (header or cookie) on the forwarded request (default true). */
  forwardToken: boolean;
}

/**
 * `forwardClaims` (default `{ sub: 'X-Auth-Sub' }`), `forwardPayload` and `forwardToken`.
 *
 * @example
 * parseForwarding({ forwardClaims: { sub: 'X-User' } }).forwardClaims; // [['sub', 'X-User']]
 */
export function parseForwarding(v: Record<string, unknown>): ForwardingConfig {
  const forwardClaims: [string, string][] = [];
  const fc = v.forwardClaims ?? { sub: 'X-Auth-Sub' };
  if (!isObject(fc)) throw new ConfigError('forwardClaims', 'expected an object of claim -> header name');
  const headersSeen = new Set<string>();
  for (const [claim, header] of Object.entries(fc)) {
    const h = str(header, `forwardClaims.${claim}`);
    if (!HTTP_TOKEN.test(h)) throw new ConfigError(`forwardClaims.${claim}`, 'not a valid header name');
    if (RESERVED_HEADERS.has(h.toLowerCase()))
      throw new ConfigError(`forwardClaims.${claim}`, 'this header cannot carry a claim');
    if (headersSeen.has(h.toLowerCase())) throw new ConfigError(`forwardClaims.${claim}`, 'header used twice');
    headersSeen.add(h.toLowerCase());
    forwardClaims.push([claim, h]);
  }
  let forwardPayload: string | undefined;
  if (v.forwardPayload !== undefined) {
    forwardPayload = str(v.forwardPayload, 'forwardPayload');
    if (!HTTP_TOKEN.test(forwardPayload)) throw new ConfigError('forwardPayload', 'not a valid header name');
    if (RESERVED_HEADERS.has(forwardPayload.toLowerCase()) || headersSeen.has(forwardPayload.toLowerCase()))
      throw new ConfigError('forwardPayload', 'this header cannot carry the payload');
  }
  if (v.forwardToken !== undefined && typeof v.forwardToken !== 'boolean')
    throw new ConfigError('forwardToken', 'expected true or false');
  return { forwardClaims, forwardPayload, forwardToken: v.forwardToken !== false };
}

/**
 * The `origin` setting: an https URL, `builtin:echo`, `{ service }`, or undefined (the request's own URL).
 *
 * @example
 * parseOrigin({ service: 'API' }); // { service: 'API' }
 */
export function parseOrigin(v: unknown): OriginConfig {
  if (v === undefined) return undefined;
  if (v === ECHO_ORIGIN) return ECHO_ORIGIN;
  if (isObject(v)) {
    knownKeys(v, 'origin', new Set(['service']));
    const service = str(v.service, 'origin.service');
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(service)) throw new ConfigError('origin.service', 'expected a binding name');
    return { service };
  }
  return httpUrl(v, 'origin');
}
