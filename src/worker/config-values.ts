// The value checks every GUARD_CONFIG section uses: each failure is a ConfigError
// naming the setting, with fixed text (a configured value, maybe a secret, never appears).

import { ConfigError } from './config-error.js';
import { knownKeys } from './config-problems.js';
import { refuseRoundedConfigValue } from './exact-number.js';

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

export { knownKeys };

/** A claim must equal the value, or (a list) one of the values; an array claim must contain it. */
export type ClaimWant = string | number | boolean | readonly (string | number | boolean)[];

/** An HTTP token (RFC 9110): header names, cookie names, methods. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Whether a value is a plain JSON object (not null, not an array).
 *
 * @example
 * isObject({}); // true
 */
export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An object section with only the given keys; `undefined` stays undefined. */
export function section(
  v: unknown,
  setting: string,
  keys: ReadonlySet<string>,
  expected = 'expected an object',
): Json | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) throw new ConfigError(setting, expected);
  knownKeys(v, setting, keys);
  return v;
}

export function str(v: unknown, setting: string): string {
  if (typeof v !== 'string' || v.length === 0) throw new ConfigError(setting, 'expected a non-empty string');
  return v;
}

export function strList(v: unknown, setting: string, allowEmpty = false): string[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || (!allowEmpty && list.length === 0))
    throw new ConfigError(setting, 'expected a string or a non-empty array of strings');
  return list.map((x, i) => str(x, `${setting}[${i}]`));
}

export function num(v: unknown, setting: string, fallback: number, min: number, max: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new ConfigError(setting, `expected an integer from ${min} to ${max}`);
  return v;
}

/** A path setting: a non-empty string starting with `/`. */
export function absPath(v: unknown, setting: string): string {
  const p = str(v, setting);
  if (!p.startsWith('/')) throw new ConfigError(setting, 'a path must start with /');
  return p;
}

/** An https URL (http only on loopback), as the URL parser serialises it. */
export function httpUrl(v: unknown, setting: string): string {
  const s = str(v, setting);
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new ConfigError(setting, 'not a URL');
  }
  const local = isLoopback(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && local))
    throw new ConfigError(setting, 'must be https (http only for localhost)');
  return u.href;
}

/**
 * Loopback hosts, the only ones allowed over plain http (local tests and fake IdPs).
 *
 * @example
 * isLoopback('127.0.0.1'); // true
 */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/** Claim name -> wanted value(s), for an issuer's or a rule's `claims`. */
export function claimValues(v: unknown, setting: string): Record<string, ClaimWant> {
  const out: Record<string, ClaimWant> = {};
  if (v === undefined) return out;
  if (!isObject(v)) throw new ConfigError(setting, 'expected an object of claim values');
  const scalar = (x: unknown): boolean => ['string', 'number', 'boolean'].includes(typeof x);
  for (const [name, want] of Object.entries(v)) {
    const ok = scalar(want) || (Array.isArray(want) && want.length > 0 && want.every(scalar));
    if (!ok)
      throw new ConfigError(`${setting}.${name}`, 'expected a string, number or boolean, or a non-empty list of them');
    refuseRoundedConfigValue(want, `${setting}.${name}`); // exact-number.ts
    out[name] = want as ClaimWant;
  }
  return out;
}
