// The verify path in one direction (docs/architecture.md): bound and split, header,
// key, signature, then (and only then) claims. The same code serves verifySync (no
// promise anywhere for Wasm algorithms) and verify (awaits WebCrypto and key fetches
// when it must). JWE reaches it only through the `decryption` value jweDecryption makes
// (src/jwe/decryption.ts), which carries the JWE code: a Worker that never makes one
// (the guard never does) does not bundle src/jwe/.

import { CACHE_OPTION_NAMES, VerifyCache, type CacheOptions, type KeyProof } from './cache.js';
import { checkClaims, timeWindow, type JWTPayload } from './claims.js';
import { JwtError } from './errors.js';
import { deepFreeze } from './freeze.js';
import { parseHeader, type JoseHeader, type ParsedHeader } from './header.js';
import { split } from './jws.js';
import { decodeJws, payloadBytes, type decodeAllowedOnly } from './jws-bytes.js';
import { checkOptionNames, type OptionNames } from './option-names.js';
import {
  buildPolicy,
  POLICY_OPTION_NAMES,
  type Policy,
  type PolicyInput,
  type PolicyOptions,
  type PolicySettings,
} from './options.js';
import { optionsError } from './options-error.js';
import { parsePayloadText } from './payload.js';
import { INPUT_CAP } from './wasm/abi.js';
import type { DecodedJws } from './wasm/core.js';
import type { KeyEntry } from './keys/entry.js';
import type { Handle } from './signature.js';
import type { JweDecryption } from './jwe/decryption.js';
import type { JweStep } from './jwe/verify-step.js';

/**
 * What a successful verify returns: the payload (claims checked) and the protected header.
 *
 * @example
 * const { payload, header }: VerifyResult = await verifier.verify(token);
 */
export interface VerifyResult<P = JWTPayload> {
  readonly payload: P;
  readonly header: JoseHeader;
}

/**
 * One entry of `issuers`: a full policy whose `issuer` is required.
 * @example
 * const entry: IssuerPolicy = { issuer: 'https://a.example', algorithms: ['RS256'], jwks: setA };
 */
export type IssuerPolicy = PolicyOptions & { issuer: string | readonly string[] };

/**
 * createVerifier's options: one policy (`algorithms` and exactly one of `key` or
 * `jwks`, plus claim checks), or `issuers` with one policy each (then `key`,
 * `jwks`, `algorithms` and `issuer` belong inside the entries; other claim
 * settings at the top are defaults for every entry).
 * @example
 * const one: VerifierOptions = { algorithms: ['HS256'], key: secretBytes, audience: 'api' };
 * const many: VerifierOptions = { issuers: [entryA, entryB], audience: 'api' };
 */
export type VerifierOptions = VerifierSettings & (PolicyOptions | MultiIssuerOptions);

/** `issuers` mode: the key source and allow-list live in each entry. */
export type MultiIssuerOptions = Partial<Omit<PolicySettings, 'algorithms' | 'issuer'>> & {
  /** Several issuers in one verifier: the token's (unverified) `iss` picks the policy, then all is verified. */
  issuers: readonly IssuerPolicy[];
  key?: undefined;
  jwks?: undefined;
  algorithms?: undefined;
  issuer?: undefined;
};

/** The settings of VerifierOptions that are not about one policy. */
export interface VerifierSettings {
  /** Several issuers in one verifier: see MultiIssuerOptions. */
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
  /**
   * Also accept compact JWE (5 segments): claims encrypted under a shared key, or a nested
   * signed JWT (cty "JWT") verified as any other token after decryption. Made by
   * `jweDecryption({ keys, ... })`, a separate export so that a verifier without it
   * bundles no JWE code.
   */
  decryption?: JweDecryption;
}

/** The names createVerifier accepts: checkOptionNames refuses any other (a misspelt option would turn a check off). */
// Object.assign marked pure, not a spread: a bundle that never checks options (a compiled guard) drops both tables.
export const VERIFIER_OPTION_NAMES = /* @__PURE__ */ Object.assign({}, POLICY_OPTION_NAMES, {
  issuers: true,
  maxTokenLength: true,
  currentDate: true,
  cache: true,
  rawPayload: true,
  decryption: true,
} as const) satisfies OptionNames<Required<VerifierOptions>>;

/**
 * A verifier built by createVerifier: options checked once, each key built once, at
 * the first verify that selects it (or all at once by `prepare`).
 *
 * @example
 * const { payload } = await verifier.verify(token); // every algorithm
 * const { payload: p } = verifier.verifySync(token); // HS*, EdDSA everywhere; RS/PS/ES under Node, Bun, Deno
 */
export interface Verifier extends Preparable {
  /** Verify `token`: signature first, then claims. Rejects with a JwtError. */
  verify<P = JWTPayload>(token: string): Promise<VerifyResult<P>>;
  /**
   * verify without a promise; ERR_ASYNC_REQUIRED where a step would have to wait (WebCrypto, a key fetch or first
   * import).
   */
  verifySync<P = JWTPayload>(token: string): VerifyResult<P>;
  /** Drop every cached result (e.g. after revoking a key). */
  clearCache(): void;
}

/**
 * The verifier `createVerifier({ ..., rawPayload: true })` returns: the payload
 * is the signed bytes, not a claims set.
 * @example
 * const v: RawVerifier = createVerifier({ algorithms: ['EdDSA'], key: jwk, rawPayload: true });
 * const bytes: Uint8Array = v.verifySync(jws).payload;
 */
export interface RawVerifier extends Preparable {
  verify(token: string): Promise<VerifyResult<Uint8Array>>;
  verifySync(token: string): VerifyResult<Uint8Array>;
  /** Drop every cached result (there are none: rawPayload does not cache). */
  clearCache(): void;
}

/**
 * `prepare`, on every verifier: build every key it holds in code now instead of at
 * the first verify that selects it.
 * @example
 * await verifier.prepare(); // rejects with an AggregateError listing every key that cannot be built
 */
export interface Preparable {
  /**
   * Build now every key the verifier holds in code (`key`, and each key of a `jwks`
   * object or createLocalJWKSet set, for every allowed algorithm it fits): the checks
   * that cost (an EC point on its curve, RSA parameters) and the imports (Wasm,
   * node:crypto, WebCrypto) that createVerifier leaves to the first verify selecting
   * the key. Resolves when all are built; else rejects with an `AggregateError` whose
   * `errors` hold one JwtError per key that cannot be built (the error its verify
   * would give, never key bytes), in the order of the options. A key in a set that a
   * verify would pass over (an off-curve point) or refuse (a short RSA modulus) is
   * reported too. Remote sets are not fetched. Safe to call more than once, and to
   * skip: a verifier that was never prepared verifies the same way.
   * @example
   * const verifier = createVerifier({ issuers });
   * await verifier.prepare(); // at deploy or start-up: a broken key fails here, not at its first token
   */
  prepare(): Promise<void>;
}

const DEFAULT_MAX_TOKEN = 16_384;

type Maybe<T> = T | Promise<T>;
/** The payload as text (undefined: not UTF-8), or as a copy of its bytes for rawPayload. */
type Payload = string | undefined | Uint8Array;

/** Everything a verify reads, fixed when the verifier is created. */
interface Setup {
  readonly maxLength: number;
  readonly raw: boolean;
  /** The policy when there is one issuer entry (or none); undefined with `issuers`. */
  readonly single: Policy | undefined;
  readonly byIssuer: ReadonlyMap<string, Policy>;
  readonly cache: VerifyCache<VerifyResult> | undefined;
  readonly clock: () => number;
  /** The JWE step the `decryption` option made (src/jwe/verify-step.ts); undefined: a JWE is refused as malformed. */
  jwe: JweStep<VerifyResult> | undefined;
  /**
   * The allowed algorithms the Wasm core verifies (HS*, EdDSA): only their tokens are decoded in the core
   * (jws-bytes.ts).
   */
  readonly coreAlgs: ReadonlySet<string>;
  /**
   * How a token's segments are decoded (told whether its alg is in coreAlgs): decodeJws, or decodeAllowedOnly
   * (edgejwt/hmac).
   */
  readonly decode: Decode;
}

/** decodeJws's shape (src/jws-bytes.ts). */
export type Decode = typeof decodeAllowedOnly;

/** Thrown inside verifySync when a step would have to wait; settleSync turns it into ERR_ASYNC_REQUIRED. */
class AsyncNeeded {
  constructor(
    readonly pending: Promise<unknown>,
    readonly reason: string,
  ) {}
}

/**
 * The verifier createVerifier returns. It reaches src/jwe/ only through a `decryption`
 * value made by jweDecryption (src/jwe/decryption.ts), which carries the JWE code: a
 * bundle that never makes one carries none.
 * @example
 * const verifier = buildVerifier({ issuers, cache: false });
 */
export function buildVerifier(options: VerifierOptions & { rawPayload: true }): RawVerifier;
export function buildVerifier(options: VerifierOptions): Verifier;
export function buildVerifier(options: VerifierOptions): Verifier | RawVerifier {
  const s = setup(options, issuerPolicies, jweStep, decodeJws);
  return { ...buildVerifierFrom(s), prepare: () => prepareKeys(s) };
}

/** How setup turns one policy's options (and the shared defaults) into a Policy. */
export type PolicyMaker = (o: PolicyInput, defaults: Partial<PolicyInput>) => Policy;

/** The policies of a verifier: one (`single`), or one per issuer. */
interface Policies {
  single: Policy | undefined;
  byIssuer: Map<string, Policy>;
}

/**
 * The same verifier over one policy `policyOf` makes, with no `issuers` and no JWE,
 * its tokens decoded by `decode`: edgejwt/hmac's createVerifier (src/hmac/index.ts),
 * whose policies hold HMAC keys only, with decodeAllowedOnly. The `issuers` and
 * `decryption` code of setup stays out of its bundle.
 * @example
 * const verifier = buildVerifierWith({ algorithms: ['HS256'], key: secretBytes }, hmacPolicy, decodeAllowedOnly);
 */
export function buildVerifierWith(options: VerifierOptions, policyOf: PolicyMaker, decode: Decode): Verifier {
  // Its one HMAC secret was checked and made at construction (KeyEntry.prepare; the core
  // import of a secret cannot fail for the key's sake): nothing is left to prepare.
  return {
    ...buildVerifierFrom(
      setup(options, (o) => ({ single: policyOf(o as PolicyOptions, {}), byIssuer: new Map() }), noDecryption, decode),
    ),
    prepare: () => Promise.resolve(),
  };
}

/** A verifier without `prepare` (each entry adds the one it needs; the route guard's has none). */
type Unprepared = Omit<Verifier, 'prepare'>;

function buildVerifierFrom(s: Setup): Unprepared {
  return {
    verify<P>(token: string): Promise<VerifyResult<P>> {
      try {
        if (s.jwe !== undefined && s.jwe.isCompactJwe(token))
          return Promise.resolve(s.jwe.verify(token)) as Promise<VerifyResult<P>>;
        return Promise.resolve(run(s, token, false, s.clock(), false)) as Promise<VerifyResult<P>>;
      } catch (e) {
        return Promise.reject(e);
      }
    },
    verifySync<P>(token: string): VerifyResult<P> {
      if (s.jwe !== undefined && s.jwe.isCompactJwe(token)) return s.jwe.verifySync(token) as VerifyResult<P>;
      const nowMs = s.clock();
      // A cache hit returns before any of the verify machinery (try/catch, promise checks).
      if (s.cache !== undefined && typeof token === 'string') {
        const hit = s.cache.get(token, nowMs);
        if (hit !== undefined) return hit as VerifyResult<P>;
        return settleSync(s, token, nowMs, true) as VerifyResult<P>;
      }
      return settleSync(s, token, nowMs, false) as VerifyResult<P>;
    },
    clearCache(): void {
      s.cache?.clear();
    },
  };
}

/**
 * Verifier.prepare: every held key built for each allowed algorithm it fits; a key none of them can build is reported.
 */
async function prepareKeys(s: Setup): Promise<void> {
  const errors: unknown[] = [];
  // One policy may stand for several issuer names: each is built once.
  for (const policy of new Set(s.single === undefined ? s.byIssuer.values() : [s.single])) {
    for (const key of policy.source.held?.() ?? []) {
      let built = false;
      let first: unknown;
      for (const spec of policy.specs.values()) {
        if (!key.fits(spec)) continue;
        try {
          await key.handle(spec);
          built = true;
        } catch (e) {
          first ??= e;
        }
      }
      if (!built && first !== undefined) errors.push(first);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, `${errors.length} verification key(s) cannot be built`);
}

/** The options, checked once: every mistake is ERR_OPTIONS_INVALID here, never at verify time. */
function setup(
  options: VerifierOptions,
  policiesOf: (options: VerifierOptions, raw: boolean) => Policies,
  jweOf: JweOf,
  decode: Decode,
): Setup {
  if (typeof options !== 'object' || options === null) throw optionsError('options');
  checkOptionNames(options, VERIFIER_OPTION_NAMES);
  const maxLength = options.maxTokenLength ?? DEFAULT_MAX_TOKEN;
  if (!Number.isInteger(maxLength) || maxLength < 16 || maxLength > INPUT_CAP) throw optionsError('maxTokenLength');
  const fixed = options.currentDate;
  if (fixed !== undefined && (!(fixed instanceof Date) || Number.isNaN(fixed.getTime())))
    throw optionsError('currentDate');
  const raw = options.rawPayload === true;

  const { single, byIssuer } = policiesOf(options, raw);

  let cache: VerifyCache<VerifyResult> | undefined;
  const c = options.cache ?? true;
  if (c !== false && !raw) {
    const o = c === true ? {} : c;
    if (typeof o !== 'object' || o === null) throw optionsError('cache');
    checkOptionNames(o, CACHE_OPTION_NAMES, 'cache');
    const max = o.max ?? 1000;
    const ttl = o.ttl ?? 60;
    if (!Number.isInteger(max) || max < 0) throw optionsError('cache.max');
    if (typeof ttl !== 'number' || !(ttl > 0) || !Number.isInteger(ttl))
      throw optionsError('cache.ttl', 'expected whole seconds (an integer, 1 or more)');
    if (max > 0) cache = new VerifyCache<VerifyResult>(max, ttl);
  }

  const s = setupOf(
    maxLength,
    raw,
    single,
    byIssuer,
    cache,
    fixed === undefined ? Date.now : () => fixed.getTime(),
    decode,
  );
  if (options.decryption !== undefined) s.jwe = jweOf(s, options.decryption);
  return s;
}

/** A Setup from checked pieces: nothing here checks an option (setup did). */
function setupOf(
  maxLength: number,
  raw: boolean,
  single: Policy | undefined,
  byIssuer: ReadonlyMap<string, Policy>,
  cache: VerifyCache<VerifyResult> | undefined,
  clock: () => number,
  decode: Decode,
): Setup {
  const coreAlgs = new Set<string>();
  for (const policy of single === undefined ? byIssuer.values() : [single]) {
    for (const spec of policy.specs.values()) if (spec.wasm) coreAlgs.add(spec.alg);
  }
  return { maxLength, raw, single, byIssuer, cache, clock, jwe: undefined, coreAlgs, decode };
}

/** The main entry's policies: one, or with `issuers` one per issuer (each built by buildPolicy). */
function issuerPolicies(options: VerifierOptions, raw: boolean): Policies {
  if (options.issuers === undefined) return { single: buildPolicy(options as PolicyOptions, {}), byIssuer: new Map() };
  return policiesPerIssuer(options, raw, buildPolicy);
}

/** One policy per entry of `issuers`, each made by `policyOf`. */
function policiesPerIssuer(options: VerifierOptions, raw: boolean, policyOf: PolicyMaker): Policies {
  const byIssuer = new Map<string, Policy>();
  if (!Array.isArray(options.issuers) || options.issuers.length === 0) throw optionsError('issuers');
  if (
    options.key !== undefined ||
    options.jwks !== undefined ||
    options.algorithms !== undefined ||
    options.issuer !== undefined
  ) {
    throw optionsError('issuers', 'key, jwks, algorithms and issuer belong inside each issuer entry');
  }
  if (raw) throw optionsError('rawPayload', 'issuers need a JWT payload');
  const { issuers, ...defaults } = options;
  for (const [i, entry] of issuers.entries()) {
    if (typeof entry === 'object' && entry !== null) checkOptionNames(entry, POLICY_OPTION_NAMES, `issuers[${i}]`);
    addIssuer(byIssuer, policyOf(entry, defaults));
  }
  return { single: undefined, byIssuer };
}

/**
 * `policy` under each of its issuer names. ERR_OPTIONS_INVALID for a policy with no issuer
 * or a name already taken.
 * @example
 * for (const policy of policies) addIssuer(byIssuer, policy);
 */
export function addIssuer<P extends { readonly claims: { readonly issuer: ReadonlySet<string> | undefined } }>(
  byIssuer: Map<string, P>,
  policy: P,
): void {
  if (policy.claims.issuer === undefined) throw optionsError('issuers', 'each entry needs an issuer');
  for (const iss of policy.claims.issuer) {
    if (byIssuer.has(iss)) throw optionsError('issuers', 'an issuer is listed twice');
    byIssuer.set(iss, policy);
  }
}
/** How setup takes the `decryption` option: jweStep (the main entry), or noDecryption. */
type JweOf = (s: Setup, decryption: JweDecryption) => JweStep<VerifyResult>;

/**
 * The step a `decryption` value made by jweDecryption carries (src/jwe/verify-step.ts), lent this verifier's run,
 * settleSync and complete.
 */
function jweStep(s: Setup, decryption: JweDecryption): JweStep<VerifyResult> {
  // Only a value jweDecryption made carries the JWE code (a plain `{ keys }` is the 0.1.0 form).
  const d = decryption as Partial<JweDecryption> | null;
  const support = typeof d === 'object' && d !== null ? d.support : undefined;
  if (typeof support?.createStep !== 'function')
    throw optionsError('decryption', 'expected jweDecryption({ keys, ... })');
  const { raw, single, byIssuer, clock, maxLength } = s;
  return support.createStep(d!.options!, maxLength, {
    raw,
    single,
    byIssuer,
    now: clock,
    verify: (token) => run(s, token, false, clock(), false),
    verifySync: (token) => settleSync(s, token, clock(), false),
    // Direct JWE claims are not stored: no lookup ever reads a JWE from the cache.
    claims: (token, header, alg, kid, payload, text, policy, nowMs) =>
      complete(
        s,
        true,
        token,
        { header: header as JoseHeader, alg, kid },
        payload,
        text,
        policy,
        nowMs,
        undefined,
        false,
      ),
  });
}

/** The two-step verifier (and edgejwt/hmac, which refuses the option first) never decrypts. */
function noDecryption(): never {
  throw optionsError('decryption', 'this verifier never decrypts');
}

/**
 * One verify, top to bottom: bound, header, key, signature, claims (in complete).
 * `looked`: the caller already consulted the cache at `nowMs` and missed.
 * `sync`: a step that would wait throws AsyncNeeded instead.
 */
function run(s: Setup, token: string, sync: boolean, nowMs: number, looked: boolean): Maybe<VerifyResult> {
  if (s.cache !== undefined && !looked && typeof token === 'string') {
    // A hit holds only inside the clock window its exp, nbf and max age allow (get checks it).
    const hit = s.cache.get(token, nowMs);
    if (hit !== undefined) return hit;
  }
  return finish(s, open(s, token), sync, nowMs);
}

/**
 * A token opened but not verified: split, header parsed, both segments decoded in
 * the core, and (with `issuers`) the payload parsed. Nothing here is
 * trusted until finish has checked the signature.
 */
interface Opened {
  readonly token: string;
  readonly ph: ParsedHeader;
  readonly jws: DecodedJws;
  readonly payload: Payload;
  /** The parsed payload, when open parsed it: complete reuses it (one parse per verify). */
  readonly early: Record<string, unknown> | undefined;
  /** The key finish selected (set once it is known): a cache ties the verdict to it. */
  proof: KeyEntry | undefined;
}

/** Bound and split, header, the token into the core, and with `issuers` the payload parsed. */
function open(s: Setup, token: string): Opened {
  // Bound and split.
  const dots = split(token, s.maxLength);
  // Header.
  const ph = parseHeader(token, dots.headerEnd);
  // Both segments decoded once: in the Wasm core for an allowed HS*/EdDSA token (the
  // signing input stays there for the signature check, see Core.decodeJws), else in JS.
  const jws = s.decode(token, dots.headerEnd, dots.payloadEnd, s.coreAlgs.has(ph.alg));
  const payload: Payload = s.raw ? payloadBytes(jws) : jws.payload;
  // With `issuers`, only to choose the policy: nothing in the payload is trusted until the signature holds.
  const early = s.single === undefined ? parsePayloadText(jws.payload) : undefined;
  // proof starts present so the object keeps one shape when finish sets it.
  return { token, ph, jws, payload, early, proof: undefined };
}

/** The policy, key and signature of an opened token, then its claims (in complete). */
function finish(s: Setup, o: Opened, sync: boolean, nowMs: number): Maybe<VerifyResult> {
  const { token, ph, jws, payload, early } = o;
  let policy = s.single;
  if (policy === undefined) {
    policy = typeof early!.iss === 'string' ? s.byIssuer.get(early!.iss) : undefined;
    if (policy === undefined) throw new JwtError('ERR_JWKS_NO_MATCHING_KEY', { reason: 'no policy for this issuer' });
  }
  const spec = policy.specs.get(ph.alg);
  if (spec === undefined) throw new JwtError('ERR_JWS_ALG_NOT_ALLOWED');
  // Fixed-size signatures (HMAC tags, Ed25519, raw ECDSA r||s) have one valid length; DER never fits.
  if (spec.sigLength !== 0 && jws.signatureLength !== spec.sigLength) throw new JwtError('ERR_JWS_SIGNATURE_INVALID');

  // Key.
  const key = policy.source.select(spec, ph.kid);
  let handle: Handle | Promise<Handle>;
  if (key instanceof Promise) {
    handle = key.then((k) => {
      o.proof = k;
      return k.handle(spec);
    });
  } else {
    o.proof = key;
    handle = key.handle(spec);
  }

  // Signature. The common case reads the signing input and signature where decodeJws
  // left them; a check that finishes later (or a token opened before an await, see
  // buildTwoStepVerifier) hands the same value, decoded again if the core's regions
  // served another verify meanwhile.
  let verdict: Maybe<boolean>;
  if (handle instanceof Promise) {
    if (sync)
      throw new AsyncNeeded(
        handle,
        key instanceof Promise ? 'the key set is being fetched' : 'the key is being imported',
      );
    verdict = handle.then((ready) => ready.verify(jws));
  } else {
    verdict = handle.verify(jws);
    if (sync && verdict instanceof Promise) throw new AsyncNeeded(verdict, 'the signature needs WebCrypto');
  }

  // Claims.
  const p = policy;
  if (verdict instanceof Promise)
    return verdict.then((ok) => complete(s, ok, token, ph, early, payload, p, nowMs, o.proof));
  return complete(s, verdict, token, ph, early, payload, p, nowMs, o.proof);
}

/**
 * A token opened by a TwoStepVerifier: its unverified `alg` and `iss`, for a
 * caller that decides something cheap (whether a shared cache is worth asking)
 * before the verify. Never trust either.
 */
export interface OpenedToken {
  /** The protected header's alg, as sent. */
  readonly alg: string;
  /** The protected header's kid, as sent. */
  readonly kid: string | undefined;
  /** The payload's iss, as sent (any JSON value, or undefined). */
  readonly iss: unknown;
  /** Once verifyOpened has selected it, the key that proved the token (a cache ties the verdict to it). */
  readonly proof: KeyEntry | undefined;
}

/**
 * A verifier whose verify can be split around an await: `open` does what every
 * verify does first (split, header, decode, one parse of the payload) and
 * `verifyOpened` goes on from there (policy, key, signature, claims), so the
 * payload is parsed once. Internal to the route guard (not exported by the package);
 * it has no verify/verifySync (the guard never calls them, so its bundle carries neither).
 * @example
 * const opened = verifier.open(token); // throws the JwtError a verify would
 * const { payload } = await verifier.verifyOpened(opened);
 */
export interface TwoStepVerifier {
  /** Throws the JwtError verify would for a token that does not get this far. */
  open(token: string): OpenedToken;
  /**
   * Finish the verify of a token `open` returned: the result itself when no step
   * waits (Wasm algorithms, a key already imported), else a promise. A failure found
   * without waiting is thrown, one found later rejects; either is the JwtError verify gives.
   */
  verifyOpened(opened: OpenedToken): VerifyResult | Promise<VerifyResult>;
}

class OpenedJwt implements OpenedToken {
  constructor(readonly o: Opened) {}
  get alg(): string {
    return this.o.ph.alg;
  }
  get kid(): string | undefined {
    return this.o.ph.kid;
  }
  get iss(): unknown {
    return this.o.early!.iss;
  }
  get proof(): KeyEntry | undefined {
    return this.o.proof;
  }
}

/**
 * buildVerifier for the route guard: the same verify, as open then verifyOpened.
 * `issuers` only (so `open` parses the payload exactly where verify does, to pick
 * the policy, and refuses the same tokens with the same codes), no verify cache
 * (the guard keeps its own), no rawPayload, no JWE. Each issuer's policy is made by `policyOf`: buildPolicy
 * (any key), or edgejwt/hmac's hmacPolicy for a guard of HMAC secrets, so its bundle holds no key-set code.
 * @example
 * const v = buildTwoStepVerifier({ issuers, cache: false }, buildPolicy);
 * const opened = v.open(token);
 * if (worthAsking(opened.iss, opened.alg)) { ... }
 * const { payload } = await v.verifyOpened(opened); // a value or a promise
 */
export function buildTwoStepVerifier(
  options: MultiIssuerOptions & VerifierSettings & { cache: false; rawPayload?: false },
  policyOf: PolicyMaker,
): TwoStepVerifier {
  if (options.issuers === undefined) throw optionsError('issuers', 'the two-step verifier takes issuers');
  return twoStep(setup(options, (o, raw) => policiesPerIssuer(o, raw, policyOf), noDecryption, decodeJws));
}

function twoStep(s: Setup): TwoStepVerifier {
  return {
    open(token: string): OpenedToken {
      return new OpenedJwt(open(s, token));
    },
    verifyOpened(opened: OpenedToken): VerifyResult | Promise<VerifyResult> {
      if (!(opened instanceof OpenedJwt)) throw new TypeError('verifyOpened takes what open returned');
      return finish(s, opened.o, false, s.clock());
    },
  };
}

/** Runs only once the signature verdict is in: nothing of the payload was trusted before. */
function complete(
  s: Setup,
  ok: boolean,
  token: string,
  ph: ParsedHeader,
  early: Record<string, unknown> | undefined,
  text: Payload,
  policy: Policy,
  nowMs: number,
  proof?: KeyProof,
  store = true,
): VerifyResult {
  if (!ok) throw new JwtError('ERR_JWS_SIGNATURE_INVALID');
  if (text instanceof Uint8Array) return Object.freeze({ payload: text as unknown as JWTPayload, header: ph.header });
  const payload = early ?? parsePayloadText(text);
  checkClaims(payload, ph.header, policy.claims, nowMs / 1000);
  // Without the cache every call owns its result (a fresh parse, never frozen);
  // a cached result goes to every caller of the same token, so it is frozen all the
  // way down (nested arrays and objects too). bench/verify/freeze.ts measures what that costs.
  if (s.cache === undefined) return { payload: payload as JWTPayload, header: ph.header };
  const result: VerifyResult = Object.freeze({ payload: deepFreeze(payload) as JWTPayload, header: ph.header });
  // Direct JWE claims are not stored: no lookup ever reads a JWE from the cache, and a
  // cached entry must only ever stand for a signature that held.
  if (!store) return result;
  const w = timeWindow(result.payload, policy.claims);
  // Tied to the key that proved it: a refresh that drops the key (or a set gone stale) ends the hit.
  s.cache.set(token, result, nowMs, w.from, w.until, proof);
  return result;
}

/** verifySync: run in sync mode, where a step that would wait is ERR_ASYNC_REQUIRED. */
function settleSync(s: Setup, token: string, nowMs: number, looked: boolean): VerifyResult {
  let out: Maybe<VerifyResult>;
  try {
    out = run(s, token, true, nowMs, looked);
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
