// From the Worker's environment to the pieces a guard runs with: the checked
// config, one library verifier over every issuer, the KV tiers and counters.
// Anything wrong is a ConfigError naming the setting.
//
// The config comes in checked (parseConfig in start.ts), so this module never imports the
// parser. The optional features (KV tiers and sealing, remote key sets and discovery, the
// origin assertion's signer, ...) come through a FeatureSource (features/registry.ts), each
// built only when the config uses it.

import { decodeSegment } from '../b64.js';
import type { RemoteJWKSet } from '../keys/remote.js';
// Not createVerifier: the guard never decrypts JWE, so src/jwe/ stays out of its bundle.
import { buildTwoStepVerifier, type IssuerPolicy, type TwoStepVerifier } from '../verify-path.js';
import { hmacPolicy } from '../hmac/source.js';
import { issuerSettings, issuersError } from './issuer-settings.js';
import type { AfterVerifyStage } from './after-verify.js';
import { ConfigError } from './config-error.js';
import type { GuardConfig } from './config.js';
import { Counters } from './counters.js';
import type { AnalyticsLike } from './observe.js';
import { RejectionLog } from './rejection-log.js';
import { senderConstraintStage } from './sender-constraint.js';
import { AUTHORIZATION_TOKEN } from './authorization-token.js';
import { hmacOnly, usesRemoteKeys, type FeatureBuild, type FeaturePieces, type FeatureSource, type TokenReader } from './features/registry.js';
import { runBuildSteps } from './features/build-step.js';
import { cacheKeyBytes } from './cache-key.js';
import { plainFetch } from '../keys/plain-fetch.js';
import type { KVLike } from './kv.js';
import type { KvVerifyParts } from './kv-parts.js';
import type { KeySource } from '../keys/source.js';

/**
 * The Worker bindings the guard reads. The `Env` that `wrangler types` generates for
 * the guard's wrangler.toml is accepted as it is.
 *
 * @example
 * export default { fetch: (request: Request, env: Env, ctx: ExecutionContext) => guard.fetch(request, env, ctx) };
 */
export interface GuardEnv {
  GUARD_CONFIG?: unknown;
  CACHE_KEY?: string;
  VERIFY_CACHE?: KVLike;
  JWKS_CACHE?: KVLike;
  /** Workers Analytics Engine dataset: one data point per request outcome when bound. */
  ANALYTICS?: AnalyticsLike;
  /**
   * Secrets and service bindings named in GUARD_CONFIG. `any`, not `unknown`: the `Env`
   * that `wrangler types` writes is an interface, and TypeScript gives an interface no
   * implicit index signature, so only an `any` index accepts it. The guard reads these
   * as `unknown` and checks each one.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [binding: string]: any;
}

export type { AnalyticsLike };

/** What tests (and embedders) may swap: the network and the clock. */
export interface GuardDeps {
  fetch?: typeof fetch;
  now?: () => number;
  log?: (line: string) => void;
}

/**
 * What a guard runs with. The optional features' pieces (admin, cors, rules, reserved, dpopAnswers,
 * service, payloadHeader, assertion: FeaturePieces in features/registry.ts) are spread in from
 * their build steps, undefined when the config does not use them; so are the KV verify tier's
 * (l2, admission, keyTags, and verifyTiers, the verify stage with L2: KvVerifyParts in kv-parts.ts), with cache.verify only.
 */
export interface GuardParts extends Omit<FeaturePieces, 'tokens' | 'proving' | 'revocation'>, Partial<KvVerifyParts> {
  config: GuardConfig;
  /** open + verifyOpened let the L2 decision read iss and alg from the one parse the verify uses. */
  verifier: TwoStepVerifier;
  counters: Counters;
  /** The writes of the key-set tiers (Cache API, KV), handed to waitUntil once a verify settles. */
  jwksStore: { drain(): Promise<void> | undefined } | undefined;
  remoteSets: RemoteJWKSet[];
  /** Where the token is read and dropped: Authorization alone, or the tokenSources feature. */
  tokens: TokenReader;
  analytics: AnalyticsLike | undefined;
  rejections: RejectionLog;
  /** The stages after the claim checks (after-verify.ts), only those the config sets; in order. */
  afterVerify: AfterVerifyStage[];
  /** The revocation admin endpoint (`revocation.path`), when revocation is configured. */
  revocationAdmin: ((request: Request) => Promise<Response>) | undefined;
  fetch: typeof fetch;
  now: () => number;
  log: (line: string) => void;
}

/**
 * Build from a checked config and the environment, reaching optional features through `features`.
 * Each issuer's policy is made by the library's options code, as createVerifier makes it.
 *
 * @example
 * const parts = await buildParts(parseConfig(env.GUARD_CONFIG), env, {}, allFeatures);
 */
export async function buildParts(config: GuardConfig, env: GuardEnv, deps: GuardDeps, features: FeatureSource): Promise<GuardParts> {
  const log = deps.log ?? ((line: string) => console.log(line));
  const now = deps.now ?? (() => Date.now());
  const counters = new Counters(log, now(), now);
  const remoteIssuers = usesRemoteKeys(config);
  // The KV copy of key sets serves only fetched key sets: without them neither tier may need the sealer.
  const kvUsed = config.cache.verifyAlgorithms.size > 0 || (config.cache.jwks && remoteIssuers);
  // A malformed CACHE_KEY is refused whether or not a tier uses it.
  const cacheKey = cacheKeyBytes(env.CACHE_KEY);
  const kvFeature = kvUsed && cacheKey !== undefined ? await features('kvTiers', 'CACHE_KEY') : undefined;
  // The sealer, and the KV copy of key sets when it is on (kv-parts.ts).
  const kv = kvFeature === undefined ? undefined : await kvFeature.openKvTiers(config, env, counters, remoteIssuers);
  if (cacheKey === undefined) log(JSON.stringify({ edgejwt: 'notice', message: 'CACHE_KEY is not set: the KV verify and JWKS caches and the Cache API key-set tier are off' }));
  const baseFetch = plainFetch(deps.fetch);

  const remote = remoteIssuers
    ? await (await features('remoteKeys', 'issuers (jwksUrl, discovery)')).open({ config, fetch: baseFetch, counters, now, log, store: kv?.jwksStore, sealer: kv?.sealer, cacheKey: env.CACHE_KEY })
    : undefined;
  // Key sets and asymmetric keys are a feature: a config of HMAC secrets only runs on edgejwt/hmac's policies.
  const keyIssuer = config.issuers.findIndex((is) => is.source.kind !== 'secret');
  const keySets = hmacOnly(config) ? undefined : await features('keySets', `issuers[${keyIssuer}] (${config.issuers[keyIssuer]!.source.kind})`);
  const identity: unknown[] = [config.clockTolerance];
  const fetched = new Map<string, KeySource>();
  // Each issuer's options as createVerifier takes them: its settings and its key (a secret) or key set.
  const issuers: IssuerPolicy[] = [];
  for (const [i, is] of config.issuers.entries()) {
    const at = `issuers[${i}]`;
    // The L2's policy id names these settings (not the checked policy: its Sets have no JSON).
    const base = issuerSettings(is);
    const src = is.source;
    if (src.kind === 'secret') {
      const secret: unknown = env[src.binding];
      const bytes = typeof secret === 'string' ? decodeSegment(secret.trim(), 0, secret.trim().length) : undefined;
      if (bytes === undefined) throw new ConfigError(`${at}.secretBinding`, 'the secret is not set or is not base64url');
      issuers.push({ ...base, key: bytes });
      // HS secret rotation must orphan old entries: the id carries a keyed digest of it
      // (computed only when there is an L2 to name: it is a crypto call on the first request).
      identity.push(base, kv === undefined || config.cache.verifyAlgorithms.size === 0 ? 'no-l2' : await kv.sealer.digest('hs-secret', bytes));
    } else {
      // A key set, from the feature that owns its kind: fetched (remoteKeys) or inline (keySets).
      const keys = (src.kind === 'jwks' ? keySets! : remote!).keysOf(is);
      issuers.push({ ...base, jwks: keys.jwks });
      for (const name of keys.fetchedFor) fetched.set(name, keys.jwks);
      identity.push(base, keys.id);
    }
  }

  let verifier: TwoStepVerifier;
  try {
    // The library's options -> policy code, as createVerifier's (edgejwt/hmac's for HMAC secrets alone, so that
    // guard bundles no key-set code); no verify cache: the guard keeps its own L1 before KV.
    const options = { issuers, clockTolerance: config.clockTolerance, cache: false as const };
    verifier = buildTwoStepVerifier(options, keySets?.buildPolicy ?? hmacPolicy);
  } catch (e) {
    throw issuersError(e);
  }

  // The L2 under a policy id naming every issuer's settings and keys (kv-parts.ts).
  const tiers = kv?.verifyParts(identity, fetched);

  // Each optional stage the config sets, built by its feature in order (features/build-step.ts).
  const b: FeatureBuild = { config, env, counters, now, log, fetch: baseFetch, pieces: { proving: [] } };
  await runBuildSteps(b, features);
  const p = b.pieces;
  // Always on, after the stages that prove keys: a token bound to a key no stage proved is no bearer token (sender-constraint.ts).
  // Revocation last: a refusal decided in the isolate comes before a possible wait for the revocation list.
  const afterVerify: AfterVerifyStage[] = [...p.proving, senderConstraintStage(config.realm, config.dpop?.algorithms, p.dpopAnswers)];
  if (p.revocation !== undefined) afterVerify.push(p.revocation.stage);
  const analytics = env.ANALYTICS !== undefined && typeof env.ANALYTICS.writeDataPoint === 'function' ? env.ANALYTICS : undefined;

  return {
    // The features' pieces; `proving` and `revocation` ride along unread (afterVerify, revocationAdmin).
    ...p,
    config,
    tokens: p.tokens ?? AUTHORIZATION_TOKEN,
    analytics,
    rejections: new RejectionLog(log, now),
    verifier,
    counters,
    ...tiers,
    jwksStore: remote?.writes,
    remoteSets: remote?.sets ?? [],
    afterVerify,
    revocationAdmin: p.revocation?.admin,
    fetch: baseFetch,
    now,
    log,
  };
}
