// The `resource` section of GUARD_CONFIG (RFC 9728 / RFC 8707): checked once into
// ResourceSettings, each mistake a ConfigError naming the setting.
//
// `id` is the resource identifier clients send as RFC 8707's `resource` and tokens carry
// as `aud`, so it is compared as a string: it must already be in the form the URL parser
// writes (an origin-only id may leave out the final `/`), or two spellings of one URL
// would be two audiences. https only (RFC 9728 §2; the MCP authorization spec requires
// https for every endpoint), except http on loopback for local development, the same
// rule as `jwksUrl`. No fragment (RFC 8707 §2 forbids one), no query (RFC 8707 §2 advises
// against one, and the well-known path of §3.1 would then carry it), no userinfo.

import { ConfigError } from '../worker/config-error.js';
import { httpUrl, isObject, knownKeys, str, strList } from '../worker/config-values.js';
import { RESOURCE_KEYS } from '../worker/config-keys.js';
import type { ResourceSettings } from './metadata.js';
import type { StepUpNeed } from './step-up.js';

/** A scope token (RFC 6749 §3.3), also used for `acr` values: printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** The longest `maxAge` a rule may ask: a year, in seconds. */
const MAX_AGE_LIMIT = 31_536_000;

/**
 * The `resource` section, or undefined when absent.
 *
 * @example
 * parseResource({ id: 'https://mcp.example.com/mcp', scopes: ['tools:call'] });
 * // { id: 'https://mcp.example.com/mcp', scopes: ['tools:call'], documentation: undefined }
 */
export function parseResource(v: unknown, at = 'resource'): ResourceSettings | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) throw new ConfigError(at, 'expected an object with an id');
  knownKeys(v, at, RESOURCE_KEYS);
  const id = resourceId(v.id, `${at}.id`);
  const scopes = v.scopes === undefined ? undefined : tokens(v.scopes, `${at}.scopes`);
  const documentation = v.documentation === undefined ? undefined : httpUrl(v.documentation, `${at}.documentation`);
  return Object.freeze({ id, scopes, documentation });
}

/**
 * A resource identifier: https (http only on loopback), no fragment, query or userinfo, written as the URL parser
 * writes it (an origin-only id may leave out the final `/`).
 *
 * @example
 * resourceId('https://mcp.example.com/mcp', 'resource.id'); // 'https://mcp.example.com/mcp'
 */
export function resourceId(v: unknown, setting: string): string {
  const raw = str(v, setting);
  // A bare `#` or `?` leaves hash and search empty: look at the text itself.
  if (raw.includes('#')) throw new ConfigError(setting, 'a resource identifier has no fragment (RFC 8707 §2)');
  if (raw.includes('?')) throw new ConfigError(setting, 'a resource identifier has no query here (RFC 8707 §2)');
  const href = httpUrl(raw, setting);
  const u = new URL(href);
  if (u.username !== '' || u.password !== '') throw new ConfigError(setting, 'a resource identifier has no userinfo');
  const canonical = raw === href || (u.pathname === '/' && raw + '/' === href);
  if (!canonical) {
    const how = 'lower-case scheme and host, no default port, no dot segments, percent-encoded';
    throw new ConfigError(setting, `write it as the URL parser does: ${how}`);
  }
  return raw;
}

/**
 * A rule's step-up settings (RFC 9470): `acr` (acceptable values) and `maxAge` (seconds since `auth_time`), read
 * from the rule object `rule` at `at` (its own key check is the rule parser's); undefined when it sets neither.
 *
 * @example
 * parseStepUp({ pathPrefix: '/admin', acr: ['urn:mace:incommon:iap:silver'], maxAge: 300 }, 'rules[0]');
 * // { acr: ['urn:mace:incommon:iap:silver'], maxAge: 300 }
 */
export function parseStepUp(rule: Readonly<Record<string, unknown>>, at: string): StepUpNeed | undefined {
  const acr = rule.acr === undefined ? undefined : tokens(rule.acr, `${at}.acr`);
  const raw = rule.maxAge;
  if (raw !== undefined && (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > MAX_AGE_LIMIT)) {
    throw new ConfigError(`${at}.maxAge`, `expected an integer from 0 to ${MAX_AGE_LIMIT} (seconds)`);
  }
  if (acr === undefined && raw === undefined) return undefined;
  return Object.freeze({ acr, maxAge: raw as number | undefined });
}

/** A non-empty list of scope-token strings (scopes, acr values): each goes into a space-separated challenge value. */
function tokens(v: unknown, setting: string): readonly string[] {
  const list = strList(v, setting);
  list.forEach((s, i) => {
    if (!SCOPE_TOKEN.test(s)) {
      throw new ConfigError(`${setting}[${i}]`, 'printable ASCII without spaces, quotes or backslashes');
    }
  });
  return Object.freeze(list);
}
