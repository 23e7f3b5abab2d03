// The `issuers` section: who signs, for whom, with which algorithms, and where the
// keys are. The verification stage (verify-tiers.ts) and build.ts use the result.

import { SUPPORTED_ALGORITHMS, algSpec } from '../algorithms.js';
import { jwkCouldVerify } from '../keys/jwk-fits.js';
import { ConfigError } from './config-error.js';
import { eachElement } from './config-problems.js';
import { claimValues, httpUrl, isObject, knownKeys, str, strList, type ClaimWant, type Json } from './config-values.js';
import { parseIssuerChecks, type IssuerChecks } from './issuer-checks.js';
import { parseIssuerDpop, type DpopMode } from './stages/dpop/dpop-config.js';
import { parseMtlsMode, type MtlsMode } from './stages/mtls/mtls-config.js';
import { ISSUER_KEYS } from './config-keys.js';
import { parseIntrospection, type IntrospectionSettings } from '../introspection/config.js';

export type KeySourceConfig =
  | { kind: 'jwks'; jwks: { keys: unknown[] } }
  | { kind: 'jwksUrl'; url: string }
  | { kind: 'secret'; binding: string }
  | { kind: 'discovery' };

export interface IssuerConfig extends IssuerChecks {
  /** Every `iss` spelling this entry accepts (the first is its name in logs). */
  issuer: string[];
  /** Empty when the entry binds tokens with `claims` instead. */
  audience: string[];
  /** Claim values every token of this issuer must carry (Cognito access tokens: client_id, token_use). */
  claims: Record<string, ClaimWant>;
  algorithms: string[];
  source: KeySourceConfig;
  /** RFC 9449 sender constraint (dpop-config.ts); undefined: DPoP-scheme tokens of this issuer are refused. */
  dpop?: DpopMode | undefined;
  /** RFC 8705 certificate-bound tokens (mtls-stage.ts); undefined: not checked. */
  mtls?: MtlsMode | undefined;
  /** RFC 7662: where this issuer's opaque tokens are asked about (stages/introspection/); one issuer at most. */
  introspection?: IntrospectionSettings | undefined;
}

/**
 * The `issuers` list, checked: at least one entry, each `iss` spelling in one entry only. `resourceId`
 * (the `resource` section's id, RFC 8707) is the audience of every entry that sets none of its own.
 *
 * @example
 * parseIssuers([
 *   {
 *     issuer: 'https://id.example.com',
 *     audience: 'api',
 *     algorithms: ['RS256'],
 *     jwksUrl: 'https://id.example.com/jwks',
 *   },
 * ]);
 */
export function parseIssuers(v: unknown, resourceId?: string): IssuerConfig[] {
  if (!Array.isArray(v) || v.length === 0) throw new ConfigError('issuers', 'expected a non-empty array');
  const issuers = eachElement(v, (raw, i) => parseIssuer(raw, i, resourceId));
  const seen = new Set<string>();
  for (const [i, is] of issuers.entries()) {
    for (const name of is.issuer) {
      if (seen.has(name)) throw new ConfigError(`issuers[${i}].issuer`, 'listed twice');
      seen.add(name);
    }
  }
  // An opaque token names no issuer: with two endpoints the guard could not tell whom to ask (decision 0003).
  const asking = issuers.flatMap((is, i) => (is.introspection === undefined ? [] : [i]));
  if (asking.length > 1) {
    throw new ConfigError(
      `issuers[${asking[1]}].introspection`,
      `only one issuer may introspect (issuers[${asking[0]}] does)`,
    );
  }
  return issuers;
}

/** Whether the raw `issuers` list has a Cloudflare Access entry (its token sources differ). */
export function usesCloudflareAccess(v: unknown): boolean {
  return Array.isArray(v) && v.some((x) => isObject(x) && x.cloudflareAccess !== undefined);
}

/** `cloudflareAccess: { team }` fills in what Cloudflare Access fixes: issuer, JWKS URL, RS256. */
function expandCloudflareAccess(v: Json, at: string): Json {
  const cfa = v.cloudflareAccess;
  if (cfa === undefined) return v;
  if (!isObject(cfa)) throw new ConfigError(`${at}.cloudflareAccess`, 'expected { "team": name }');
  knownKeys(cfa, `${at}.cloudflareAccess`, new Set(['team']));
  const team = str(cfa.team, `${at}.cloudflareAccess.team`);
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(team))
    throw new ConfigError(
      `${at}.cloudflareAccess.team`,
      'expected the team name (the part before .cloudflareaccess.com)',
    );
  for (const k of ['issuer', 'jwks', 'jwksUrl', 'secretBinding', 'discovery']) {
    if (v[k] !== undefined) throw new ConfigError(`${at}.${k}`, 'set by cloudflareAccess; remove it');
  }
  // The AUD tag of the Access application is required: without it any app of the team would pass.
  if (v.audience === undefined) throw new ConfigError(`${at}.audience`, 'the Access application AUD tag is required');
  const issuer = `https://${team.toLowerCase()}.cloudflareaccess.com`;
  return {
    ...v,
    issuer,
    jwksUrl: `${issuer}/cdn-cgi/access/certs`,
    algorithms: v.algorithms ?? ['RS256'],
    cloudflareAccess: undefined,
  };
}

function parseIssuer(raw: unknown, i: number, resourceId: string | undefined): IssuerConfig {
  const at = `issuers[${i}]`;
  if (!isObject(raw)) throw new ConfigError(at, 'expected an object');
  knownKeys(raw, at, ISSUER_KEYS);
  const v = expandCloudflareAccess(raw, at);
  const issuer = strList(v.issuer, `${at}.issuer`);
  const claims = claimValues(v.claims, `${at}.claims`);
  // A token must be bound to this API: by aud, or by claims (Cognito access tokens carry no aud).
  // Neither is a configuration error, never "any audience".
  // With `resource`, its id binds them (RFC 8707): an entry's own audience replaces it, nothing is added.
  if (v.audience === undefined && Object.keys(claims).length === 0 && resourceId === undefined) {
    throw new ConfigError(`${at}.audience`, 'an issuer needs audience or claims that bind tokens to this API');
  }
  const fallback = resourceId === undefined ? [] : [resourceId];
  const audience = v.audience !== undefined ? strList(v.audience, `${at}.audience`) : fallback;
  const algorithms = strList(v.algorithms, `${at}.algorithms`);
  for (const [j, a] of algorithms.entries()) {
    if (!SUPPORTED_ALGORITHMS.includes(a)) throw new ConfigError(`${at}.algorithms[${j}]`, 'unsupported algorithm');
  }
  const checks = parseIssuerChecks(v, at);
  // RFC 9068 tokens always carry aud, and the library's profile checks it: claims alone cannot stand in.
  if (checks.profile !== undefined && audience.length === 0)
    throw new ConfigError(`${at}.audience`, 'the at+jwt profile needs audience (claims alone are not enough)');
  const mtls = parseMtlsMode(v.mtls, `${at}.mtls`);
  const source = keySource(v, at, issuer, algorithms);
  const dpop = parseIssuerDpop(v.dpop, at);
  const introspection = parseIntrospection(v.introspection, at);
  const optional = {
    ...(mtls === undefined ? {} : { mtls }),
    ...(introspection === undefined ? {} : { introspection }),
  };
  return { issuer, audience, claims, algorithms, source, ...checks, dpop, ...optional };
}

/** Where the entry's keys come from: exactly one of jwks, jwksUrl, secretBinding or discovery (the default). */
function keySource(v: Json, at: string, issuer: string[], algorithms: string[]): KeySourceConfig {
  if (v.discovery !== undefined && v.discovery !== true)
    throw new ConfigError(`${at}.discovery`, 'expected true (or leave it out)');
  const given = (['jwks', 'jwksUrl', 'secretBinding', 'discovery'] as const).filter((k) => v[k] !== undefined);
  if (given.length > 1) throw new ConfigError(`${at}`, 'at most one of jwks, jwksUrl, secretBinding or discovery');
  const hs = algorithms.filter((a) => a.startsWith('HS'));
  if (given.length === 0 || v.discovery === true) {
    // OIDC discovery from the issuer itself: it must be one URL, https (http only on loopback).
    if (issuer.length !== 1) throw new ConfigError(`${at}.issuer`, 'discovery needs exactly one issuer');
    httpUrl(issuer[0], `${at}.issuer`);
    if (hs.length > 0) throw new ConfigError(`${at}.algorithms`, 'HS algorithms need a secretBinding, not a key set');
    return { kind: 'discovery' };
  }
  if (v.secretBinding !== undefined) {
    if (hs.length !== algorithms.length)
      throw new ConfigError(`${at}.algorithms`, 'a secretBinding issuer allows only HS256/HS384/HS512');
    return { kind: 'secret', binding: str(v.secretBinding, `${at}.secretBinding`) };
  }
  // Published key sets must never verify HMAC: anyone holding the set could mint tokens.
  if (hs.length > 0) throw new ConfigError(`${at}.algorithms`, 'HS algorithms need a secretBinding, not a key set');
  if (v.jwksUrl !== undefined) return { kind: 'jwksUrl', url: httpUrl(v.jwksUrl, `${at}.jwksUrl`) };
  const jwks = v.jwks;
  if (!isObject(jwks) || !Array.isArray(jwks.keys) || jwks.keys.length === 0)
    throw new ConfigError(`${at}.jwks`, 'expected { "keys": [ ... ] } with at least one key');
  // A set whose every key would be skipped refuses every token: fail at start instead (members only, no import).
  const specs = algorithms.map((a) => algSpec(a)!);
  if (!jwks.keys.some((k) => jwkCouldVerify(k, specs))) {
    throw new ConfigError(
      `${at}.jwks`,
      `no key that ${algorithms.join(', ')} can use (by kty, crv, alg, use and key_ops)`,
    );
  }
  return { kind: 'jwks', jwks: { keys: jwks.keys } };
}
