// Which rule a request falls under, and authorisation after a token verified.
//
// Order (docs/deploy.md, "Rules"): the admin path, a CORS preflight, then
// `publicPaths` (auth "none"), then `rules` in the order written — the FIRST rule
// whose pathPrefix and methods match wins — and with no match, a token is
// required from any configured issuer. When the readings of a path (canonical,
// without `;params`, decoded: src/worker/path.ts) fall under different rules,
// every one of them applies and the strictest auth mode wins (fail closed); the
// same for letter case (as written, and folded unless paths.caseSensitive).
// Claims are read as own properties only (never `toString` from the prototype).

import { grantedScopes } from '../../../bearer/scopes.js';
import { ownClaim, type JWTPayload } from '../../../claims.js';
import { ConfigError } from '../../config-error.js';
import { eachElement } from '../../config-problems.js';
import { claimValues, HTTP_TOKEN, isObject, knownKeys, strList, type ClaimWant } from '../../config-values.js';
import type { IssuerConfig } from '../../issuers-config.js';
import { ruleApplies } from '../path/path.js';
import { isPublic } from '../../request.js';
import { canonicalSetting } from '../path/paths-config.js';
import { roundedInteger } from '../../exact-number.js';
import { RULE_KEYS } from '../../config-keys.js';
import { parseStepUp } from '../../../resource/config.js';
import { checkStepUp, type StepUpNeed } from '../../../resource/step-up.js';

/** What a matched rule asks of the request. */
export type AuthMode = 'required' | 'optional' | 'none';

export interface RuleConfig {
  pathPrefix: string;
  /** Upper-case methods the rule applies to; undefined: every method. */
  methods: ReadonlySet<string> | undefined;
  auth: AuthMode;
  /** The token's issuer must be one of these configured issuers (any spelling); undefined: any. */
  issuers: string[] | undefined;
  /** The token's aud must hold one of these; undefined: the issuer's own check only. */
  audience: string[] | undefined;
  scopes: string[];
  claims: Record<string, ClaimWant>;
  /** RFC 9470: the `acr` and `auth_time` the token must show; undefined: none asked. */
  stepUp?: StepUpNeed | undefined;
}

/** What matchRules reads of the configuration. */
export interface RulesView {
  readonly rules: readonly RuleConfig[];
  readonly paths: { readonly caseSensitive: boolean };
}

const AUTH_MODES = new Set(['required', 'optional', 'none']);

export interface Matched {
  rules: RuleConfig[];
  /** Index of each rule in `rules` (for logs). */
  names: string[];
  auth: AuthMode;
}

const STRICTNESS: Record<AuthMode, number> = { none: 0, optional: 1, required: 2 };
/** What applies with no rule matched (or none configured): a token from any configured issuer. */
export const NO_RULE: Matched = Object.freeze({
  rules: Object.freeze([]) as unknown as RuleConfig[],
  names: Object.freeze([]) as unknown as string[],
  auth: 'required',
});

/**
 * The first matching rule for each reading of the path (src/worker/path.ts:
 * canonicalPath's `readings`), and for each letter-case view of it: with case as
 * written (a case-sensitive origin) and, unless `paths.caseSensitive`, with case
 * folded (a case-insensitive one). Each view's first match applies; the strictest
 * auth wins. So `/V1/Admin` falls under a later `/v1` rule as a case-sensitive
 * origin reads it even when an earlier `/v1/admin` rule says "none".
 * `/admin/` also covers `/admin`.
 */
export function matchRules(readings: readonly string[], method: string, config: RulesView): Matched {
  // No rules: every reading needs a token (what the loop below would find, without its allocations).
  if (config.rules.length === 0) return NO_RULE;
  const picked = new Map<number, RuleConfig>();
  let auth: AuthMode | undefined;
  const views = config.paths.caseSensitive ? [true] : [true, false];
  for (const p of readings) {
    for (const caseSensitive of views) {
      const i = config.rules.findIndex(
        (r) => ruleApplies(r.pathPrefix, [p], caseSensitive) && (r.methods === undefined || r.methods.has(method)),
      );
      const mode: AuthMode = i < 0 ? 'required' : config.rules[i]!.auth;
      if (i >= 0) picked.set(i, config.rules[i]!);
      if (auth === undefined || STRICTNESS[mode] > STRICTNESS[auth]) auth = mode;
    }
  }
  return { rules: [...picked.values()], names: [...picked.keys()].map((i) => `rules[${i}]`), auth: auth ?? 'required' };
}

/**
 * The route decision for `rules` and `publicPaths` (the rules part, index.ts): undefined for a
 * public path, else the rules that apply.
 *
 * @example
 * const matched = routeRules(readings, request.method, config); // undefined: public
 */
export function routeRules(
  readings: readonly string[],
  method: string,
  config: RulesView & { readonly publicPaths: readonly string[] },
): Matched | undefined {
  return isPublic(readings, config) ? undefined : matchRules(readings, method, config);
}

/**
 * A claim holds when it equals the wanted value (or one of a list); an array claim must
 * contain it. A wanted number beyond ±2^53 never matches (exact-number.ts: its digits
 * were lost in parsing, so two different IDs would match alike); a token's such number
 * then cannot equal any wanted value either.
 */
export function claimHolds(have: unknown, want: ClaimWant): boolean {
  const wants = Array.isArray(want) ? want : [want];
  return wants.some((w) => !roundedInteger(w) && (Array.isArray(have) ? have.includes(w) : have === w));
}

/** The name of the first issuer claim the payload lacks (own claims only), or undefined. */
export function issuerClaimMiss(issuer: IssuerConfig, payload: JWTPayload): string | undefined {
  for (const [name, want] of Object.entries(issuer.claims)) if (!claimHolds(ownClaim(payload, name), want)) return name;
  return undefined;
}

type RuleMissCode =
  'wrong_issuer' | 'wrong_audience' | 'insufficient_scope' | 'claim_mismatch' | 'insufficient_user_authentication';

export interface RuleMiss {
  /** 401 (the token is not for this route: issuer, audience; or step-up) or 403 (scope, claim). */
  status: 401 | 403;
  code: RuleMissCode;
  claim?: string;
  /** Every scope the matched rules need (for the `scope` attribute of the 403). */
  scopes: string[];
  description: string;
  /** For insufficient_user_authentication: what the first unmet rule asks (RFC 9470 `acr_values`, `max_age`). */
  stepUp?: StepUpNeed;
}

/**
 * undefined when every matched rule holds for this payload; otherwise what is missing. `now` (seconds) and
 * `tolerance` are for the step-up age (RFC 9470): checked here, per request, after any verify cache answered.
 *
 * @example
 * const miss = checkRules(cx.matched.rules, payload, issuer, Date.now() / 1000, config.clockTolerance);
 */
export function checkRules(
  rules: readonly RuleConfig[],
  payload: JWTPayload,
  issuer: IssuerConfig,
  now = 0,
  tolerance = 0,
): RuleMiss | undefined {
  if (rules.length === 0) return undefined;
  const needed = [...new Set(rules.flatMap((r) => r.scopes))];
  for (const r of rules) {
    if (r.issuers !== undefined && !r.issuers.some((name) => issuer.issuer.includes(name))) {
      return {
        status: 401,
        code: 'wrong_issuer',
        claim: 'iss',
        scopes: needed,
        description: 'The access token is invalid',
      };
    }
    if (r.audience !== undefined && !claimHolds(ownClaim(payload, 'aud'), r.audience)) {
      return {
        status: 401,
        code: 'wrong_audience',
        claim: 'aud',
        scopes: needed,
        description: 'The access token is invalid',
      };
    }
  }
  const granted = grantedScopes(payload);
  if (needed.some((s) => !granted.has(s)))
    return {
      status: 403,
      code: 'insufficient_scope',
      scopes: needed,
      description: 'The access token lacks a required scope',
    };
  for (const r of rules) {
    for (const [name, want] of Object.entries(r.claims)) {
      if (!claimHolds(ownClaim(payload, name), want))
        return {
          status: 403,
          code: 'claim_mismatch',
          claim: name,
          scopes: needed,
          description: 'The access token lacks a required claim',
        };
    }
  }
  for (const r of rules) {
    if (r.stepUp !== undefined && !checkStepUp(payload, r.stepUp, now, tolerance).ok) {
      const claim = r.stepUp.acr !== undefined ? 'acr' : 'auth_time';
      const description = 'A stronger or more recent user authentication is required';
      return {
        status: 401,
        code: 'insufficient_user_authentication',
        claim,
        scopes: needed,
        description,
        stepUp: r.stepUp,
      };
    }
  }
  return undefined;
}

/**
 * The `rules` list, each rule checked on its own; `issuerNames` are every configured `iss` spelling (a
 * rule may name only those), undefined when they are not known (an issuer has a problem of its own).
 *
 * @example
 * parseRules([{ pathPrefix: '/admin/', scopes: ['admin'] }], new Set(['https://id.example.com']));
 */
export function parseRules(v: unknown, issuerNames: ReadonlySet<string> | undefined): RuleConfig[] {
  if (v !== undefined && !Array.isArray(v)) throw new ConfigError('rules', 'expected an array');
  return eachElement((v as unknown[] | undefined) ?? [], (r, i) => parseRule(r, i, issuerNames));
}

function parseRule(v: unknown, i: number, issuerNames: ReadonlySet<string> | undefined): RuleConfig {
  const at = `rules[${i}]`;
  if (!isObject(v)) throw new ConfigError(at, 'expected an object');
  knownKeys(v, at, RULE_KEYS);
  const pathPrefix = canonicalSetting(v.pathPrefix, `${at}.pathPrefix`, 'pathPrefix');
  let methods: Set<string> | undefined;
  if (v.methods !== undefined) {
    const list = strList(v.methods, `${at}.methods`);
    for (const [j, m] of list.entries())
      if (!HTTP_TOKEN.test(m)) throw new ConfigError(`${at}.methods[${j}]`, 'not an HTTP method');
    methods = new Set(list.map((m) => m.toUpperCase()));
    // Origins answer HEAD with their GET handler: a rule for GET must cover HEAD, or
    // HEAD would fall through to a weaker rule.
    if (methods.has('GET')) methods.add('HEAD');
  }
  if (v.auth !== undefined && (typeof v.auth !== 'string' || !AUTH_MODES.has(v.auth)))
    throw new ConfigError(`${at}.auth`, 'expected "required", "optional" or "none"');
  const auth = (v.auth ?? 'required') as AuthMode;
  const issuers = v.issuers === undefined ? undefined : strList(v.issuers, `${at}.issuers`);
  for (const [j, name] of (issuers ?? []).entries()) {
    if (issuerNames?.has(name) === false) throw new ConfigError(`${at}.issuers[${j}]`, 'not a configured issuer');
  }
  const audience = v.audience === undefined ? undefined : strList(v.audience, `${at}.audience`);
  const scopes = v.scopes === undefined ? [] : strList(v.scopes, `${at}.scopes`);
  for (const [j, s] of scopes.entries())
    if (/\s|"|\\/.test(s)) throw new ConfigError(`${at}.scopes[${j}]`, 'a scope has no spaces, quotes or backslashes');
  const claims = claimValues(v.claims, `${at}.claims`);
  const stepUp = parseStepUp(v, at);
  const asks =
    scopes.length > 0 ||
    Object.keys(claims).length > 0 ||
    issuers !== undefined ||
    audience !== undefined ||
    stepUp !== undefined;
  if (auth === 'none' && asks) {
    throw new ConfigError(
      at,
      'an auth "none" rule checks no token: remove scopes, claims, issuers, audience, acr and maxAge',
    );
  }
  // A rule that asks nothing and sets no mode is most likely a half-written one.
  if (v.auth === undefined && !asks) {
    throw new ConfigError(at, 'a rule needs scopes, claims, issuers, audience, acr, maxAge or an auth mode');
  }
  return { pathPrefix, methods, auth, issuers, audience, scopes, claims, ...(stepUp === undefined ? {} : { stepUp }) };
}
