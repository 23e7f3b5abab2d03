// The verify stage: L1 (this isolate) -> L2 (KV, kvTiers' l2-tier.ts) -> the library (verify-tiers.ts),
// then the verified token as the request's identity. Its given parts: kvTiers
// (the KV tiers and their sealer), remoteKeys (fetched key sets, discovery) and keySets (the
// library's key code, for any issuer that is not an HMAC secret); build.ts reaches them. And
// introspection (stages/introspection/): opaque tokens asked about instead of opened.

import { createLocalJWKSet } from '../../../keys/local.js';
import type { RemoteJWKSet } from '../../../keys/remote.js';
import type { KeySource } from '../../../keys/source.js';
import { buildPolicy } from '../../../options.js';
import type { IssuerConfig } from '../../issuers-config.js';
import { openKvTiers } from '../../kv-parts.js';
import { keySetTiers, RemoteKeys, type RemoteKeysSetup } from '../../remote-keys.js';
import type { GuardStage, StageBuild } from '../../stage.js';
import type { Verified } from '../../context.js';
import { identityOf, verifyFailed } from '../claims/token-checks.js';
import { dpopAnswersOf } from '../dpop/answers-of.js';
import type { IntrospectionStageValue } from '../introspection/index.js';
import { VerifyTiers } from './verify-tiers.js';

/**
 * The verify stage (always in the chain): a refusal, a 503 when keys are unavailable, or the identity.
 *
 * @example
 * const stages = [verify];
 */
export const verify: GuardStage = {
  name: 'verify',
  order: 110,
  build: (b: StageBuild) => {
    const { parts, issuers, observe, config } = b;
    // An issuer with `introspection`: opaque tokens go to its endpoint instead of the library.
    const i = config.issuers.findIndex((is) => is.introspection !== undefined);
    const setting = `issuers[${i}].introspection`;
    const intro = i < 0 ? undefined : b.use<IntrospectionStageValue>('introspection', setting).open(b);
    parts.introspection = intro;
    // L1 -> L2 (parts.l2: the kvTiers part's, with cache.verify) -> the library.
    const tiers = new VerifyTiers(parts, issuers);
    parts.tiers = tiers;
    const dpop = dpopAnswersOf(b);
    const scope = {
      config,
      observe,
      issuers,
      log: parts.log,
      dpop,
      introspection: intro,
    };
    return {
      request: (cx) => {
        cx.started = performance.now();
        let v: Verified | Promise<Verified>;
        try {
          v = tiers.verify(cx.token, cx.ctx, cx);
        } catch (e) {
          return verifyFailed(cx, e, scope);
        }
        // A verify that did not wait (an L1 hit, HS*/EdDSA in Wasm) goes on without a promise.
        if (v instanceof Promise) {
          return v.then(
            (done) => identityOf(cx, done),
            (e: unknown) => verifyFailed(cx, e, scope),
          );
        }
        return identityOf(cx, v);
      },
    };
  },
};

/** @example const s: KvTiersStage = kvTiers; */
export interface KvTiersStage extends GuardStage {
  /** The sealer, the KV copy of key sets and the verify stage's L2, put together (kv-parts.ts). */
  openKvTiers: typeof openKvTiers;
}

/**
 * The KV verify cache and the KV copy of key sets (`cache.verify`, `cache.jwks`, with CACHE_KEY set).
 *
 * @example
 * const guard = createGuard(config, { stages: [kvTiers] });
 */
export const kvTiers: KvTiersStage = { name: 'kvTiers', order: 115, build: () => undefined, openKvTiers };

/** A key set issuer's keys, from the part that owns its kind (remoteKeys: jwksUrl, discovery; keySets: jwks). */
export interface IssuerKeySets {
  keysOf(issuer: IssuerConfig): IssuerKeys;
}
/** @example const k: IssuerKeys = { jwks: set, id: url, fetchedFor: ['https://id.example.com'] }; */
export interface IssuerKeys {
  jwks: KeySource;
  /** What names these keys in the L2 policy id. */
  id: unknown;
  /** The `iss` values whose keys are fetched (key tags, kv-parts.ts). */
  fetchedFor: readonly string[];
}

/** The key-set tiers' writes, handed to waitUntil once a verify settles. */
type KeySetWrites = { drain(): Promise<void> | undefined };

/** @example const s: RemoteKeysStage = remoteKeys; */
export interface RemoteKeysStage extends GuardStage {
  /** The guard's fetched key sets (jwksUrl, discovery): each issuer's, every set made, and their tier writes. */
  open(setup: RemoteKeysSetup): Promise<IssuerKeySets & { sets: RemoteJWKSet[]; writes: KeySetWrites }>;
}

/**
 * Key sets fetched from `jwksUrl` or found by discovery.
 *
 * @example
 * const guard = createGuard(config, { stages: [keySets, remoteKeys] });
 */
export const remoteKeys: RemoteKeysStage = {
  name: 'remoteKeys',
  order: 116,
  build: () => undefined,
  open: async (setup) => {
    const remote = new RemoteKeys(setup, await keySetTiers(setup));
    return {
      sets: remote.sets,
      writes: remote.tiers,
      keysOf: (is) => {
        const src = is.source;
        if (src.kind === 'jwksUrl') return { jwks: remote.keySet(src.url), id: src.url, fetchedFor: is.issuer };
        // A discovered source answers for the one issuer it was found for.
        return { jwks: remote.discovered(is.issuer[0]!), id: 'discovery', fetchedFor: [is.issuer[0]!] };
      },
    };
  },
};

/** @example const s: KeySetsStage = keySets; */
export interface KeySetsStage extends GuardStage, IssuerKeySets {
  /** The library's policy maker for any key (options.ts); without key sets, edgejwt/hmac's hmacPolicy. */
  buildPolicy: typeof buildPolicy;
}

/**
 * Key sets and asymmetric algorithms (`jwks`, `jwksUrl`, discovery; RS*, PS*, ES*, EdDSA). A guard whose
 * issuers all use an HMAC secret runs without it, on edgejwt/hmac's policies (no JWK or key-set code).
 *
 * @example
 * const guard = createGuard(config, { stages: [keySets, remoteKeys] });
 */
export const keySets: KeySetsStage = {
  name: 'keySets',
  order: 117,
  build: () => undefined,
  buildPolicy,
  // Read at the first token for this issuer (keys/local.ts), each key built when a token
  // first selects it: a set with no usable or a broken key refuses that issuer's tokens
  // (401). `edgejwt check-config` refuses such a set before a deploy.
  keysOf: (is) => {
    const jwks = (is.source as { jwks: unknown }).jwks;
    return { jwks: createLocalJWKSet(jwks as never), id: jwks, fetchedFor: [] };
  },
};
