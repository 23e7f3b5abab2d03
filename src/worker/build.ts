// From the Worker's environment to the pieces a guard runs with: the checked
// config, one library verifier over every issuer, the KV tiers and counters.
// Anything wrong is a ConfigError naming the setting.

import { decodeSegment } from '../b64.js';
import { isJwtError } from '../errors.js';
import { createRemoteJWKSet, type RemoteJWKSet } from '../keys/remote.js';
import { parseJwks } from '../keys/local.js';
import type { Algorithm } from '../algorithms.js';
// Not createVerifier: the guard never decrypts JWE, so src/jwe/ stays out of its bundle.
import { buildTwoStepVerifier, type IssuerPolicy, type TwoStepVerifier } from '../verify-path.js';
import { digest } from '../digest.js';
import { encode } from '../b64.js';
import { ConfigError, parseConfig, type GuardConfig } from './config.js';
import { Counters } from './counters.js';
import { DiscoveredKeySource } from './discovery.js';
import { RejectionLog } from './rejection-log.js';
import { serviceBinding, type ServiceBinding } from './service-origin.js';
import { KvJwksStore } from './jwks-store.js';
import { KeyTags } from './key-tags.js';
import { remoteSetAges } from './jwks-max-age.js';
import type { KeySource } from '../keys/source.js';
import { Sealer } from './seal.js';
import type { KVLike } from './kv.js';
import { KvVerifyCache } from './verify-cache.js';
import { OriginAssertion } from './origin-assertion.js';

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

/** The one Analytics Engine method the guard calls. */
export interface AnalyticsLike {
  writeDataPoint(point: { blobs?: string[]; doubles?: number[]; indexes?: string[] }): void;
}

/** What tests (and embedders) may swap: the network and the clock. */
export interface GuardDeps {
  fetch?: typeof fetch;
  now?: () => number;
  log?: (line: string) => void;
}

export interface GuardParts {
  config: GuardConfig;
  /** open + verifyOpened let the L2 decision read iss and alg from the one parse the verify uses. */
  verifier: TwoStepVerifier;
  counters: Counters;
  l2: KvVerifyCache | undefined;
  jwksStore: KvJwksStore | undefined;
  remoteSets: RemoteJWKSet[];
  /** The key behind each L2 entry, per issuer with a fetched key set (key-tags.ts). */
  keyTags: KeyTags;
  adminSecret: string | undefined;
  /** The service binding authorised requests go to (`origin: { service }`). */
  service: ServiceBinding | undefined;
  analytics: AnalyticsLike | undefined;
  rejections: RejectionLog;
  /** The origin assertion signer, when `originAssertion` is configured. */
  assertion: OriginAssertion | undefined;
  fetch: typeof fetch;
  now: () => number;
  log: (line: string) => void;
}

/** Build from the environment; `rawConfig` replaces GUARD_CONFIG (an embedder's own object). */
export async function buildGuard(env: GuardEnv, deps: GuardDeps = {}, rawConfig: unknown = env.GUARD_CONFIG): Promise<GuardParts> {
  const config = parseConfig(rawConfig);
  const log = deps.log ?? ((line: string) => console.log(line));
  const now = deps.now ?? (() => Date.now());
  const counters = new Counters(log, now(), now);
  const sealer = await Sealer.fromSecret(env.CACHE_KEY);
  if (sealer === undefined) log(JSON.stringify({ edgejwt: 'notice', message: 'CACHE_KEY is not set: the KV verify and JWKS caches are off' }));

  const baseFetch = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  // Count every key-set fetch and its failures (non-200 included) for the counters.
  const jwksFetch: typeof fetch = async (input, init) => {
    counters.inc('jwks_fetch');
    try {
      // The caller's deadline (src/keys/fetch-deadline.ts) covers this call and the body.
      const res = await baseFetch(input, init);
      if (res.status !== 200) counters.inc('jwks_fetch_failed');
      return res;
    } catch (e) {
      counters.inc('jwks_fetch_failed');
      throw e;
    }
  };

  let jwksStore: KvJwksStore | undefined;
  if (config.cache.jwks && sealer !== undefined) {
    if (env.JWKS_CACHE === undefined) throw new ConfigError('cache.jwks', 'the JWKS_CACHE KV binding is missing');
    jwksStore = new KvJwksStore(env.JWKS_CACHE, sealer, config.cache.kvTimeoutMs, counters);
  }

  const remoteSets: RemoteJWKSet[] = [];
  const remoteSet = (url: string): RemoteJWKSet => {
    const set = createRemoteJWKSet(url, {
      timeoutDuration: config.jwksTimeoutMs,
      cooldownDuration: config.jwksCooldownMs,
      ...remoteSetAges(config.jwksMaxAgeMs),
      fetch: jwksFetch,
      now,
      ...(jwksStore === undefined ? {} : { store: jwksStore }),
    });
    remoteSets.push(set);
    return set;
  };
  const identity: unknown[] = [config.clockTolerance];
  const fetched = new Map<string, KeySource>();
  const issuers: IssuerPolicy[] = [];
  for (const [i, is] of config.issuers.entries()) {
    const at = `issuers[${i}]`;
    // An entry bound by `claims` alone has no audience for the library to check; the guard checks the claims.
    // The config's algorithms were checked against the table when it was parsed.
    const base = {
      issuer: is.issuer.length === 1 ? is.issuer[0]! : is.issuer,
      ...(is.audience.length === 0 ? {} : { audience: is.audience }),
      algorithms: is.algorithms as Algorithm[],
      ...(is.typ === undefined ? {} : { typ: is.typ }),
      // The library refuses an older iat, and with it an iat in the future (beyond clockTolerance).
      ...(is.maxTokenAge === undefined ? {} : { maxTokenAge: is.maxTokenAge }),
    };
    const src = is.source;
    if (src.kind === 'secret') {
      const secret: unknown = env[src.binding];
      const bytes = typeof secret === 'string' ? decodeSegment(secret.trim(), 0, secret.trim().length) : undefined;
      if (bytes === undefined) throw new ConfigError(`${at}.secretBinding`, 'the secret is not set or is not base64url');
      issuers.push({ ...base, key: bytes });
      // HS secret rotation must orphan old entries: the id carries a keyed digest of it
      // (computed only when there is an L2 to name: it is a crypto call on the first request).
      identity.push(base, sealer === undefined || config.cache.verifyAlgorithms.size === 0 ? 'no-l2' : await sealer.digest('hs-secret', bytes));
    } else if (src.kind === 'jwksUrl') {
      const set = remoteSet(src.url);
      issuers.push({ ...base, jwks: set });
      for (const name of is.issuer) fetched.set(name, set);
      identity.push(base, src.url);
    } else if (src.kind === 'discovery') {
      const source = new DiscoveredKeySource({
        issuer: is.issuer[0]!,
        fetch: jwksFetch,
        timeoutMs: config.jwksTimeoutMs,
        cooldownMs: config.jwksCooldownMs,
        now,
        store: jwksStore,
        keySet: remoteSet,
        log,
      });
      issuers.push({ ...base, jwks: source });
      fetched.set(is.issuer[0]!, source);
      identity.push(base, 'discovery');
    } else {
      if (parseJwks(src.jwks).length === 0) throw new ConfigError(`${at}.jwks`, 'no usable verification key in the set');
      issuers.push({ ...base, jwks: src.jwks as never });
      identity.push(base, src.jwks);
    }
  }

  let verifier: TwoStepVerifier;
  try {
    // The guard keeps its own L1 in front of KV, so the library's is off.
    verifier = buildTwoStepVerifier({ issuers, clockTolerance: config.clockTolerance, cache: false });
  } catch (e) {
    if (isJwtError(e) || e instanceof TypeError) throw new ConfigError(isJwtError(e) && e.setting !== undefined ? `issuers (${e.setting})` : 'issuers', isJwtError(e) ? e.message : 'invalid key');
    throw e;
  }

  let l2: KvVerifyCache | undefined;
  if (config.cache.verifyAlgorithms.size > 0 && sealer !== undefined) {
    if (env.VERIFY_CACHE === undefined) throw new ConfigError('cache.verify', 'the VERIFY_CACHE KV binding is missing');
    const policyId = encode(digest('SHA-256', JSON.stringify(identity))).slice(0, 22);
    l2 = new KvVerifyCache({ kv: env.VERIFY_CACHE, sealer, policyId, maxTtl: config.cache.verifyTtl, timeoutMs: config.cache.kvTimeoutMs, counters });
  }

  let adminSecret: string | undefined;
  if (config.admin !== undefined) {
    const s: unknown = env[config.admin.secretBinding];
    if (typeof s !== 'string' || s.length < 16) throw new ConfigError('admin.secretBinding', 'the secret is not set or shorter than 16 characters');
    adminSecret = s;
  }

  const service = typeof config.origin === 'object' ? serviceBinding(env, config.origin.service) : undefined;
  const analytics = env.ANALYTICS !== undefined && typeof env.ANALYTICS.writeDataPoint === 'function' ? env.ANALYTICS : undefined;

  return {
    config,
    service,
    analytics,
    rejections: new RejectionLog(log, now),
    verifier,
    counters,
    l2,
    jwksStore,
    remoteSets,
    keyTags: new KeyTags(fetched),
    adminSecret,
    assertion: config.originAssertion === undefined ? undefined : OriginAssertion.fromEnv(config.originAssertion, env),
    fetch: baseFetch,
    now,
    log,
  };
}
