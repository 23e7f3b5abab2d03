// createVerifier: the verify path of DESIGN.md in one direction: bound and split,
// header, key, signature, then (and only then) claims. The same code serves
// verifySync (no promise anywhere for Wasm algorithms) and verify (awaits
// WebCrypto and key fetches when it must).

import { backend } from '#crypto-backend';
import { algSpec, type AlgSpec } from './algorithms.js';
import { VerifyCache, type CacheOptions } from './cache.js';
import { checkClaims, timeWindow, type JWTPayload } from './claims.js';
import { JwtError } from './errors.js';
import { deepFreeze } from './freeze.js';
import { parseHeader, type JoseHeader, type ParsedHeader } from './header.js';
import { split, type Segments } from './jws.js';
import type { Handle, KeyEntry } from './keys/entry.js';
import { CACHE_OPTION_NAMES, POLICY_OPTION_NAMES, VERIFIER_OPTION_NAMES, checkOptionNames } from './option-names.js';
import { buildPolicy, type Policy, type PolicyOptions } from './options.js';
import { parsePayloadText } from './payload.js';
import type { DecodedJws } from './wasm/core.js';
import { getCore } from './wasm/instance.js';
import { verifyEd25519, verifyEd25519Decoded, verifyHmac, verifyHmacDecoded } from './wasm/keys.js';

export interface VerifyResult<P = JWTPayload> {
  readonly payload: P;
  readonly header: JoseHeader;
}

export interface IssuerPolicy extends PolicyOptions {
  issuer: string | readonly string[];
}

export interface VerifierOptions extends Partial<PolicyOptions> {
  /** Several issuers in one verifier: the token's (unverified) `iss` picks the policy, then all is verified. */
  issuers?: readonly IssuerPolicy[];
  /** Longest token accepted, in characters (default 16384, at most 65536). */
  maxTokenLength?: number;
  /** Fixed "now" (tests, replays). Default: the clock at each verify. */
  currentDate?: Date;
  /** The per-isolate verify cache: on by default; `{ max, ttl }` to size it; `false` to turn it off. */
  cache?: boolean | CacheOptions;
  /**
   * Verify a plain JWS: the payload is returned as bytes and no claim is checked
   * (for JWS whose payload is not a JWT claims set). The cache is not used.
   */
  rawPayload?: boolean;
}

export interface Verifier {
  verify<P = JWTPayload>(token: string): Promise<VerifyResult<P>>;
  verifySync<P = JWTPayload>(token: string): VerifyResult<P>;
  /** Drop every cached result (e.g. after revoking a key). */
  clearCache(): void;
}

const DEFAULT_MAX_TOKEN = 16_384;
const MAX_TOKEN_LIMIT = 65_536; // the Wasm core's input region

type Maybe<T> = T | Promise<T>;
/** The payload as text (undefined: not UTF-8), or as a copy of its bytes for rawPayload. */
type Payload = string | undefined | Uint8Array;

class AsyncNeeded {
  constructor(
    readonly pending: Promise<unknown>,
    readonly reason: string,
  ) {}
}

function optionsError(setting: string, reason?: string): JwtError {
  return new JwtError('ERR_OPTIONS_INVALID', reason === undefined ? { setting } : { setting, reason });
}

export function createVerifier(options: VerifierOptions): Verifier {
  if (typeof options !== 'object' || options === null) throw optionsError('options');
  checkOptionNames(options, VERIFIER_OPTION_NAMES);
  const maxLength = options.maxTokenLength ?? DEFAULT_MAX_TOKEN;
  if (!Number.isInteger(maxLength) || maxLength < 16 || maxLength > MAX_TOKEN_LIMIT) throw optionsError('maxTokenLength');
  const fixed = options.currentDate;
  if (fixed !== undefined && (!(fixed instanceof Date) || Number.isNaN(fixed.getTime()))) throw optionsError('currentDate');
  const raw = options.rawPayload === true;

  let single: Policy | undefined;
  const byIssuer = new Map<string, Policy>();
  if (options.issuers !== undefined) {
    if (!Array.isArray(options.issuers) || options.issuers.length === 0) throw optionsError('issuers');
    if (options.key !== undefined || options.jwks !== undefined || options.algorithms !== undefined || options.issuer !== undefined) {
      throw optionsError('issuers', 'key, jwks, algorithms and issuer belong inside each issuer entry');
    }
    if (raw) throw optionsError('rawPayload', 'issuers need a JWT payload');
    const { issuers, ...defaults } = options;
    for (const [i, entry] of issuers.entries()) {
      if (typeof entry === 'object' && entry !== null) checkOptionNames(entry, POLICY_OPTION_NAMES, `issuers[${i}]`);
      const policy = buildPolicy(entry, defaults);
      if (policy.claims.issuer === undefined) throw optionsError('issuers', 'each entry needs an issuer');
      for (const iss of policy.claims.issuer) {
        if (byIssuer.has(iss)) throw optionsError('issuers', 'an issuer is listed twice');
        byIssuer.set(iss, policy);
      }
    }
  } else {
    single = buildPolicy(options as PolicyOptions, {});
  }

  let cache: VerifyCache<VerifyResult> | undefined;
  const c = options.cache ?? true;
  if (c !== false && !raw) {
    const o = c === true ? {} : c;
    if (typeof o !== 'object' || o === null) throw optionsError('cache');
    checkOptionNames(o, CACHE_OPTION_NAMES, 'cache');
    const max = o.max ?? 1000;
    const ttl = o.ttl ?? 60;
    if (!Number.isInteger(max) || max < 0) throw optionsError('cache.max');
    if (typeof ttl !== 'number' || !(ttl > 0) || !Number.isFinite(ttl)) throw optionsError('cache.ttl');
    if (max > 0) cache = new VerifyCache<VerifyResult>(max, ttl);
  }

  const clock = fixed === undefined ? Date.now : () => fixed.getTime();

  /** `looked`: the caller already consulted the cache at `nowMs` and missed. */
  function run(token: string, sync: boolean, nowMs = clock(), looked = false): Maybe<VerifyResult> {
    if (cache !== undefined && !looked && typeof token === 'string') {
      // exp, nbf and max age are re-checked: the entry holds only inside its time window.
      const hit = cache.get(token, nowMs);
      if (hit !== undefined) return hit;
    }
    const seg = split(token, maxLength);
    const ph = parseHeader(token, seg.h);
    // The token goes into the Wasm core once: both segments are decoded there, and the
    // signing input stays there for the signature check (see Core.decodeJws).
    const core = getCore();
    const jws = core.decodeJws(token, seg.h, seg.p);
    const payload: Payload = raw ? core.payloadBytes(jws.payloadLength) : jws.payload;

    let policy = single;
    let early: Record<string, unknown> | undefined;
    if (policy === undefined) {
      // Only to choose the policy: nothing in the payload is trusted until the signature holds.
      early = parsePayloadText(jws.payload);
      policy = typeof early.iss === 'string' ? byIssuer.get(early.iss) : undefined;
      if (policy === undefined) throw new JwtError('ERR_JWKS_NO_MATCHING_KEY', { reason: 'no policy for this issuer' });
    }
    const spec = algSpec(ph.alg);
    if (spec === undefined || !policy.algs.has(spec.alg)) throw new JwtError('ERR_JWS_ALG_NOT_ALLOWED');
    // Fixed-size signatures (HMAC tags, Ed25519, raw ECDSA r||s) have one valid length; DER never fits.
    if (spec.sigLength !== 0 && jws.signatureLength !== spec.sigLength) throw new JwtError('ERR_JWS_SIGNATURE_INVALID');

    const p = policy;
    const key = p.source.select(spec, ph.kid);
    const h = key instanceof Promise ? key.then((k) => k.handle(spec)) : key.handle(spec);
    if (h instanceof Promise) {
      if (sync) throw new AsyncNeeded(h, key instanceof Promise ? 'the key set is being fetched' : 'the key is being imported');
      // A check that finishes later keeps its own copies: the core's regions serve the next verify.
      const signature = core.signatureBytes(jws.signatureLength);
      return h
        .then((ready) => settled(checkInput(ready, spec, token.slice(0, seg.p), signature, false)))
        .then((ok) => complete(ok, token, ph, early, payload, p, nowMs));
    }
    // The common case: the check reads the signing input and signature where decodeJws left them.
    const verdict = checkDecoded(h, spec, token, seg, jws, sync);
    if (verdict instanceof Promise) {
      return verdict.then(
        (ok) => complete(ok, token, ph, early, payload, p, nowMs),
        () => complete(false, token, ph, early, payload, p, nowMs),
      );
    }
    return complete(verdict, token, ph, early, payload, p, nowMs);
  }

  // Runs only once the signature verdict is in: nothing of the payload was trusted before.
  function complete(ok: boolean, token: string, ph: ParsedHeader, early: Record<string, unknown> | undefined, text: Payload, policy: Policy, nowMs: number): VerifyResult {
    if (!ok) throw new JwtError('ERR_JWS_SIGNATURE_INVALID');
    if (text instanceof Uint8Array) return Object.freeze({ payload: text as unknown as JWTPayload, header: ph.header });
    const payload = early ?? parsePayloadText(text);
    checkClaims(payload, ph.header, policy.claims, nowMs / 1000);
    // Without the cache every call owns its result (a fresh parse, never frozen);
    // a cached result goes to every caller of the same token, so it is frozen all the
    // way down (nested arrays and objects too). bench/freeze.ts measures what that costs.
    if (cache === undefined) return { payload: payload as JWTPayload, header: ph.header };
    const result: VerifyResult = Object.freeze({ payload: deepFreeze(payload) as JWTPayload, header: ph.header });
    const w = timeWindow(result.payload, policy.claims);
    cache.set(token, result, nowMs, w.from, w.until);
    return result;
  }

  function settleSync(token: string, nowMs: number, looked: boolean): VerifyResult {
    let out: Maybe<VerifyResult>;
    try {
      out = run(token, true, nowMs, looked);
    } catch (e) {
      if (e instanceof AsyncNeeded) {
        // The import or fetch carries on, so a later verifySync can succeed.
        e.pending.catch(() => undefined);
        throw new JwtError('ERR_ASYNC_REQUIRED', { reason: e.reason });
      }
      throw e;
    }
    if (out instanceof Promise) {
      out.catch(() => undefined);
      throw new JwtError('ERR_ASYNC_REQUIRED');
    }
    return out;
  }

  return {
    verify<P>(token: string): Promise<VerifyResult<P>> {
      try {
        return Promise.resolve(run(token, false)) as Promise<VerifyResult<P>>;
      } catch (e) {
        return Promise.reject(e);
      }
    },
    verifySync<P>(token: string): VerifyResult<P> {
      const nowMs = clock();
      // A cache hit returns before any of the verify machinery (try/catch, promise checks).
      if (cache !== undefined && typeof token === 'string') {
        const hit = cache.get(token, nowMs);
        if (hit !== undefined) return hit as VerifyResult<P>;
        return settleSync(token, nowMs, true) as VerifyResult<P>;
      }
      return settleSync(token, nowMs, false) as VerifyResult<P>;
    },
    clearCache(): void {
      cache?.clear();
    },
  };
}

/** A verdict whose rejection (a backend refusing a hostile signature) is a plain `false`. */
function settled(v: Maybe<boolean>): Maybe<boolean> {
  return v instanceof Promise ? v.then(undefined, () => false) : v;
}

/**
 * The signature check itself. A backend promise is returned as it is (its rejection
 * means "invalid": callers map it to false); in sync mode it becomes AsyncNeeded.
 */
function checkInput(h: Handle, spec: AlgSpec, input: string | Uint8Array, signature: Uint8Array, sync: boolean): Maybe<boolean> {
  if (signature.length !== h.sigLength) return false;
  if (h.wasm !== undefined) return spec.engine === 'hmac' ? verifyHmac(h.wasm, input, signature) : verifyEd25519(h.wasm, input, signature);
  // A backend that throws on a hostile signature has rejected it: that is a failed
  // verification, never an exception that escapes as something else.
  let v: Maybe<boolean>;
  try {
    v = backend.verify(spec, h.key, input, signature);
  } catch {
    return false;
  }
  if (v instanceof Promise && sync) throw new AsyncNeeded(v, 'the signature needs WebCrypto');
  return v;
}

/** checkInput for a token the core decoded in place (Core.decodeJws). */
function checkDecoded(h: Handle, spec: AlgSpec, token: string, seg: Segments, jws: DecodedJws, sync: boolean): Maybe<boolean> {
  const sigLength = jws.signatureLength;
  if (sigLength !== h.sigLength) return false;
  if (h.wasm !== undefined) {
    return spec.engine === 'hmac' ? verifyHmacDecoded(h.wasm, token, seg.h, seg.p, sigLength) : verifyEd25519Decoded(h.wasm, token, seg.h, seg.p, sigLength);
  }
  const views = getCore().jwsViews(token, seg.h, seg.p, sigLength);
  if (views === undefined) return false;
  const [input, signature] = views;
  // node:crypto reads views of the core's memory before it returns; a promise-based
  // backend gets copies, whatever its runtime does with the arguments.
  return backend.name === 'node' ? checkInput(h, spec, input, signature, sync) : checkInput(h, spec, input.slice(), signature.slice(), sync);
}

/**
 * @internal The signature step alone, on arbitrary bytes: the same length rules and
 * dispatch as a token verify. Tests feed it the Wycheproof primitive files, whose
 * messages cannot be a JWS signing input.
 */
export async function verifySignatureBytes(key: KeyEntry, alg: string, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
  const spec = algSpec(alg);
  if (spec === undefined || !key.fits(spec)) throw new JwtError('ERR_KEY_ALG_MISMATCH');
  if (spec.sigLength !== 0 && signature.length !== spec.sigLength) return false;
  return settled(checkInput(await key.handle(spec), spec, message, signature, false));
}
