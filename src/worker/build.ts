// From the Worker's environment to the parts every stage of a guard shares: the checked
// config, one library verifier over every issuer, the KV tiers and counters.
// Anything wrong is a ConfigError naming the setting.
//
// The config comes in checked (parseConfig in start.ts), so this module never imports the
// parser. The verify stage's given parts (kvTiers: KV tiers and sealing; remoteKeys: fetched
// key sets and discovery; keySets: the library's key code) are reached through `use`, each
// only when the config uses it (stages/verify/index.ts).

import { decodeSegment } from '../b64.js';
// Not createVerifier: the guard never decrypts JWE, so src/jwe/ stays out of its bundle.
import { buildTwoStepVerifier, type IssuerPolicy, type TwoStepVerifier } from '../verify-path.js';
import { hmacPolicy } from '../hmac/source.js';
import { issuerSettings, issuersError } from './issuer-settings.js';
import { ConfigError } from './config-error.js';
import type { GuardConfig } from './config-core.js';
import type { GuardDeps, GuardEnv, GuardParts } from './parts.js';
import type { StageUse } from './stage.js';
import type { KeySetsStage, KvTiersStage, RemoteKeysStage } from './stages/verify/index.js';
import { hmacOnly, usesRemoteKeys } from './stages/verify/uses.js';
import { Counters } from './counters.js';
import { RejectionLog } from './stages/observe/rejection-log.js';
import { cacheKeyBytes } from './cache-key.js';
import { plainFetch } from '../keys/plain-fetch.js';
import type { KeySource } from '../keys/source.js';

export type { AnalyticsLike, GuardDeps, GuardEnv, GuardParts } from './parts.js';

/**
 * Build from a checked config and the environment, reaching the verify stage's given parts through `use`.
 * Each issuer's policy is made by the library's options code, as createVerifier makes it.
 *
 * @example
 * const parts = await buildParts(parseConfig(env.GUARD_CONFIG), env, {}, stageLookup(defaultStages));
 */
export async function buildParts(
  config: GuardConfig,
  env: GuardEnv,
  deps: GuardDeps,
  use: StageUse,
): Promise<GuardParts> {
  const log = deps.log ?? ((line: string) => console.log(line));
  const now = deps.now ?? (() => Date.now());
  const counters = new Counters(log, now(), now);
  const remoteIssuers = usesRemoteKeys(config);
  // The KV copy of key sets serves only fetched key sets: without them neither tier may need the sealer.
  const kvUsed = config.cache.verifyAlgorithms.size > 0 || (config.cache.jwks && remoteIssuers);
  // A malformed CACHE_KEY is refused whether or not a tier uses it.
  const cacheKey = cacheKeyBytes(env.CACHE_KEY);
  const kvFeature = kvUsed && cacheKey !== undefined ? use<KvTiersStage>('kvTiers', 'CACHE_KEY') : undefined;
  // The sealer, and the KV copy of key sets when it is on (kv-parts.ts).
  const kv =
    kvFeature === undefined ? undefined : await kvFeature.openKvTiers(config, env, counters, now, remoteIssuers);
  if (cacheKey === undefined)
    log(
      JSON.stringify({
        edgejwt: 'notice',
        message: 'CACHE_KEY is not set: the KV verify and JWKS caches and the Cache API key-set tier are off',
      }),
    );
  const baseFetch = plainFetch(deps.fetch);

  const remote = remoteIssuers
    ? await use<RemoteKeysStage>('remoteKeys', 'issuers (jwksUrl, discovery)').open({
        config,
        fetch: baseFetch,
        counters,
        now,
        log,
        store: kv?.jwksStore,
        sealer: kv?.sealer,
        cacheKey: env.CACHE_KEY,
      })
    : undefined;
  // Key sets and asymmetric keys are a given part (keySets): HMAC secrets alone run on edgejwt/hmac's policies.
  const keyIssuer = config.issuers.findIndex((is) => is.source.kind !== 'secret');
  const keySetting = `issuers[${keyIssuer}] (${config.issuers[keyIssuer]?.source.kind})`;
  const keySets = hmacOnly(config) ? undefined : use<KeySetsStage>('keySets', keySetting);
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
      if (bytes === undefined)
        throw new ConfigError(`${at}.secretBinding`, 'the secret is not set or is not base64url');
      issuers.push({ ...base, key: bytes });
      // HS secret rotation must orphan old entries: the id carries a keyed digest of it
      // (computed only when there is an L2 to name: it is a crypto call on the first request).
      identity.push(
        base,
        kv === undefined || config.cache.verifyAlgorithms.size === 0
          ? 'no-l2'
          : await kv.sealer.digest('hs-secret', bytes),
      );
    } else {
      // A key set, from the stage part that owns its kind: fetched (remoteKeys) or inline (keySets).
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
  const l2 = kv?.verifyTier(identity, fetched);

  const analytics =
    env.ANALYTICS !== undefined && typeof env.ANALYTICS.writeDataPoint === 'function' ? env.ANALYTICS : undefined;

  return {
    config,
    analytics,
    rejections: new RejectionLog(log, now),
    verifier,
    counters,
    l2,
    jwksStore: remote?.writes,
    remoteSets: remote?.sets ?? [],
    fetch: baseFetch,
    now,
    log,
  };
}
