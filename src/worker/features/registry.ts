// The guard's optional features, each a value its own module exports (kv-tiers.ts,
// remote-keys.ts, origin-assertion.ts); every guard is given them all (all.ts), and
// buildParts asks for a feature only when the config uses it. A stage added after verify
// (sender constraint, revocation) is one more name here, one module, and one line in all.ts.

import { ConfigError } from '../config-error.js';
import type { GuardConfig } from '../config.js';
import type { dpopStageFromEnv } from '../dpop-stage.js';
import type { mtlsStage } from '../mtls-stage.js';
import type { buildRevocation } from '../revocation-stage.js';
import type { OriginAssertion } from '../origin-assertion.js';
import type { RemoteKeys } from '../remote-keys.js';
import type { createLocalJWKSet } from '../../keys/local.js';
import type { buildPolicy } from '../../options.js';
import type { openKvTiers } from '../kv-parts.js';
import type { DpopAnswers } from '../dpop-answers.js';
import type { reservedCheck } from '../reserved-paths.js';
import type { corsStage } from '../cors.js';
import type { adminEndpoint } from '../admin.js';
import type { checkRules, routeRules } from '../rules.js';
import type { dropToken, findToken, TokenSource } from '../../bearer/token.js';
import type { serviceOrigin } from '../service-origin.js';
import type { payloadHeaderValue } from '../payload-header.js';
import type { AfterVerifyStage } from '../after-verify.js';
import type { CorsStage } from '../cors.js';
import type { Counters } from '../counters.js';
import type { ServiceOrigin } from '../service-origin.js';
import type { ReservedCheck } from '../reserved-paths.js';
import type { IssuerConfig } from '../issuers-config.js';
import type { RemoteKeysSetup } from '../remote-keys.js';
import type { RemoteJWKSet } from '../../keys/remote.js';
import type { KeySource } from '../../keys/source.js';
import type { resourceStage, ResourceStage } from '../resource-stage.js';
import type { introspectionStage, IntrospectionStage } from '../introspection-stage.js';

// A feature used after the issuers are built brings its own build step (build-step.ts).
/** The pieces of a guard the optional features build (each undefined when its feature is not used). */
export interface FeaturePieces {
  /** The admin endpoint (`admin.path`), when `admin` is configured. */
  admin?: (request: Request) => Promise<Response>;
  /** The service binding authorised requests go to (`origin: { service }`). */
  service?: ServiceOrigin;
  /** Where the token is read and dropped, when `tokenSources` is not Authorization alone. */
  tokens?: TokenReader;
  /** The `forwardPayload` header's value, when it is configured. */
  payloadHeader?: (payload: unknown) => string;
  /** The origin assertion signer, when `originAssertion` is configured. */
  assertion?: OriginAssertion;
  /** The DPoP challenge and refusal the core stages give, when `dpop` is configured. */
  dpopAnswers?: DpopAnswers;
  /** Stages that prove a key (dpop, mtls), in order; the sender constraint comes after them. */
  proving: AfterVerifyStage[];
  /** Revocation: last after verify, and its admin endpoint. */
  revocation?: { stage: AfterVerifyStage; admin: (request: Request) => Promise<Response> };
  /** The CORS stage, when `cors` is configured. */
  cors?: CorsStage;
  /** Rules and public paths, when either is configured. */
  rules?: RulesFeature;
  /** Another spelling of `admin.path`, `revocation.path` or the resource metadata path refused. */
  reserved?: ReservedCheck;
  /** The resource metadata and `resource_metadata` on challenges, when `resource` is configured. */
  resource?: ResourceStage;
  /** Opaque tokens introspected (RFC 7662), when an issuer sets `introspection`. */
  introspection?: IntrospectionStage;
}

/** What a feature's build step reads, and the pieces it fills in. */
export interface FeatureBuild {
  config: GuardConfig;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  env: { readonly [binding: string]: any };
  counters: Counters;
  now: () => number;
  log: (line: string) => void;
  /** The guard's fetch (never a request's choice of URL). */
  fetch: typeof fetch;
  pieces: FeaturePieces;
}

/** A feature's part of the build: fills in `b.pieces` (a ConfigError naming the setting when it cannot). */
export interface BuildStep {
  build(b: FeatureBuild): void | Promise<void>;
}

/** @example const f: KvTiersFeature = kvTiers; */
export interface KvTiersFeature {
  readonly name: 'kvTiers';
  /** The sealer, the KV copy of key sets, the L2 and its admission, put together (kv-parts.ts). */
  openKvTiers: typeof openKvTiers;
}
/** @example const f: RemoteKeysFeature = remoteKeys; */
export interface RemoteKeysFeature {
  readonly name: 'remoteKeys';
  RemoteKeys: typeof RemoteKeys;
  /** The guard's fetched key sets (jwksUrl, discovery): each issuer's, every set made, and their tier writes. */
  open(setup: RemoteKeysSetup): Promise<IssuerKeySets & { sets: RemoteJWKSet[]; writes: { drain(): Promise<void> | undefined } }>;
}

/** A key set issuer's keys, from the feature that owns its kind (remoteKeys: jwksUrl, discovery; keySets: jwks). */
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
/** @example const f: OriginAssertionFeature = originAssertion; */
export interface OriginAssertionFeature extends BuildStep {
  readonly name: 'originAssertion';
  OriginAssertion: typeof OriginAssertion;
}

/** @example const f: DpopFeature = dpop; */
export interface DpopFeature extends BuildStep {
  readonly name: 'dpop';
  dpopStageFromEnv: typeof dpopStageFromEnv;
  /** The DPoP challenge and refusal the core stages give (credentials, token-checks, sender-constraint). */
  answers: DpopAnswers;
}
/** @example const f: MtlsFeature = mtls; */
export interface MtlsFeature extends BuildStep {
  readonly name: 'mtls';
  mtlsStage: typeof mtlsStage;
}
/** @example const f: RevocationFeature = revocation; */
export interface RevocationFeature extends BuildStep {
  readonly name: 'revocation';
  buildRevocation: typeof buildRevocation;
  /** Another spelling of `revocation.path` (or `admin.path`) refused (reserved-paths.ts). */
  reservedCheck: typeof reservedCheck;
}

// So are the core stages a config may leave out (cors, admin, rules), the library's
// key-set code (keySets), token sources other than the Authorization header (tokenSources),
// a service-binding origin (serviceOrigin) and the payload header (forwardPayload).

/** @example const f: KeySetsFeature = keySets; */
export interface KeySetsFeature extends IssuerKeySets {
  readonly name: 'keySets';
  /** The library's policy maker for any key (options.ts); without key sets, edgejwt/hmac's hmacPolicy. */
  buildPolicy: typeof buildPolicy;
  /** An inline key set (read at its first use), handed to the verifier. */
  createLocalJWKSet: typeof createLocalJWKSet;
}
/** @example const f: CorsFeature = cors; */
export interface CorsFeature extends BuildStep {
  readonly name: 'cors';
  corsStage: typeof corsStage;
}
/** @example const f: AdminFeature = admin; */
export interface AdminFeature extends BuildStep {
  readonly name: 'admin';
  adminEndpoint: typeof adminEndpoint;
  reservedCheck: typeof reservedCheck;
}
/** @example const f: RulesFeature = rules; */
export interface RulesFeature extends BuildStep {
  readonly name: 'rules';
  routeRules: typeof routeRules;
  checkRules: typeof checkRules;
}

/** @example const f: ResourceFeature = resource; */
export interface ResourceFeature extends BuildStep {
  readonly name: 'resource';
  resourceStage: typeof resourceStage;
  reservedCheck: typeof reservedCheck;
}

/** @example const f: IntrospectionFeature = introspection; */
export interface IntrospectionFeature extends BuildStep {
  readonly name: 'introspection';
  introspectionStage: typeof introspectionStage;
}

/** @example const reader: TokenReader = AUTHORIZATION_TOKEN; */
export interface TokenReader {
  /** Reads the token from every configured source (headers, cookies; src/bearer/token.ts). */
  findToken: typeof findToken;
  /** Drops it from each (forwardToken: false). */
  dropToken: typeof dropToken;
}
/** @example const f: TokenSourcesFeature = tokenSources; */
export type TokenSourcesFeature = TokenReader & BuildStep & { readonly name: 'tokenSources' };
/** @example const f: ServiceOriginFeature = serviceOrigin; */
export interface ServiceOriginFeature extends BuildStep {
  readonly name: 'serviceOrigin';
  serviceOrigin: typeof serviceOrigin;
}

/** @example const f: ForwardPayloadFeature = forwardPayload; */
export interface ForwardPayloadFeature extends BuildStep {
  readonly name: 'forwardPayload';
  payloadHeaderValue: typeof payloadHeaderValue;
}

/**
 * The features a guard may be given; a config that uses one it was not given is a ConfigError.
 *
 * @example
 * const features: GuardFeatures = { remoteKeys };
 */
export interface GuardFeatures {
  kvTiers?: KvTiersFeature;
  remoteKeys?: RemoteKeysFeature;
  originAssertion?: OriginAssertionFeature;
  dpop?: DpopFeature;
  mtls?: MtlsFeature;
  revocation?: RevocationFeature;
  keySets?: KeySetsFeature;
  cors?: CorsFeature;
  admin?: AdminFeature;
  rules?: RulesFeature;
  tokenSources?: TokenSourcesFeature;
  serviceOrigin?: ServiceOriginFeature;
  forwardPayload?: ForwardPayloadFeature;
  resource?: ResourceFeature;
  introspection?: IntrospectionFeature;
}

export type FeatureName = keyof GuardFeatures;

/** How buildParts reaches a feature: by name, with the setting that needs it (for the error). */
export type FeatureSource = <K extends FeatureName>(name: K, setting: string) => Promise<NonNullable<GuardFeatures[K]>>;

/**
 * One stage a guard may be given (`createGuard(config, { stages })`): any feature value, each naming itself.
 *
 * @example
 * const stages: GuardStage[] = [keySets, remoteKeys];
 */
export type GuardStage = NonNullable<GuardFeatures[FeatureName]>;

/**
 * The features of a stage list, by name (a later stage of the same name replaces an earlier one).
 *
 * @example
 * givenFeatures(byName([keySets, remoteKeys]));
 */
export function byName(stages: readonly GuardStage[]): GuardFeatures {
  const out: Record<string, GuardStage> = {};
  for (const stage of stages) out[stage.name] = stage;
  return out as GuardFeatures;
}

/** A source over the features given; one not given is a ConfigError naming the setting that needs it. */
export function givenFeatures(features: GuardFeatures): FeatureSource {
  return <K extends FeatureName>(name: K, setting: string) => {
    const f = features[name];
    if (f === undefined) {
      const hint = `import ${name} from edgejwt/worker and pass it in stages`;
      const message = `needs the ${name} stage, which this guard was not given (${hint})`;
      return Promise.reject(new ConfigError(setting, message));
    }
    return Promise.resolve(f as NonNullable<GuardFeatures[K]>);
  };
}

/** Whether the issuers fetch key sets (jwksUrl or discovery). */
export function usesRemoteKeys(config: GuardConfig): boolean {
  return config.issuers.some((is) => is.source.kind === 'jwksUrl' || is.source.kind === 'discovery');
}

/**
 * Whether every issuer verifies with an HMAC secret (secretBinding): then the guard needs no keySets.
 *
 * @example
 * hmacOnly(parseConfig({ issuers: [{ issuer: 'i', audience: 'api', algorithms: ['HS256'], secretBinding: 'K' }] })); // true
 */
export function hmacOnly(config: Pick<GuardConfig, 'issuers'>): boolean {
  return config.issuers.every((is) => is.source.kind === 'secret');
}

/**
 * Whether the token is read from the Authorization header alone (the default `tokenSources`):
 * then the guard needs no tokenSources feature (authorization-token.ts reads it).
 *
 * @example
 * authorizationOnly([{ header: 'Authorization' }]); // true
 * authorizationOnly([{ header: 'Authorization' }, { cookie: 'session' }]); // false
 */
export function authorizationOnly(sources: readonly TokenSource[]): boolean {
  const s = sources[0];
  return sources.length === 1 && s !== undefined && 'header' in s && s.header.toLowerCase() === 'authorization';
}
