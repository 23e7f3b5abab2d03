// What a stage of the guard is: a value with a name that builds, for one config, the
// hooks it needs (or nothing, when the config does not use it). The runner (runner.ts)
// calls the hooks of the chain (stages/index.ts) in order for every request.

import type { GuardEnv, GuardParts } from './parts.js';
import type { GuardConfig } from './config-core.js';
import type { AuthOutcome, Identity, RequestContext } from './context.js';
import type { IssuerIndex } from './issuer-index.js';
import type { Observer } from './stages/observe/observe.js';
import type { GuardSection } from './section.js';

export type { Identity } from './context.js';

/**
 * An identity check that reports through the guard's Observer (DPoP, mTLS, the sender constraint, revocation).
 *
 * @example
 * const revoked: AfterVerifyStage = (cx, id, observe) =>
 *   isRevoked(id.payload) ? observe.refuse(cx, res, fields) : undefined;
 */
export type AfterVerifyStage = (cx: RequestContext, identity: Identity, observe: Observer) => Step;

/** A hook's result: undefined continues; an outcome stops (a refusal), passes (anonymous) or is the identity. */
export type Step = AuthOutcome | undefined | Promise<AuthOutcome | undefined>;

/**
 * The hooks one stage offers; each is optional, and a stage offers only those it needs.
 *
 * @example
 * const hooks: StageHooks = { answer: (cx, res) => (res.headers.set('x-seen', '1'), res) };
 */
export interface StageHooks {
  /** The guard's own endpoints and edge checks: fetch only (authenticate hands the request to the caller). */
  serve?(cx: RequestContext): Step;
  /** On the request before (or while) the token is read: fetch and authenticate. */
  request?(cx: RequestContext): Step;
  /** On the verified identity (an L1 or L2 hit included); an identity returned replaces it. */
  identity?(cx: RequestContext, id: Identity): Step;
  /** The request let through: its answer (the forward stage). */
  pass?(cx: RequestContext, outcome: Extract<AuthOutcome, { ok: true }>): Promise<Response>;
  /** On every answer of a stage after this one, and on the pass's. */
  answer?(cx: RequestContext, response: Response): Response;
  /** On the 500 of a fault, wherever it happened. */
  fault?(response: Response): Response;
}

/**
 * What a stage's build reads: the checked config, the env, the guard's shared parts, and the other given stages.
 *
 * @example
 * const keys = b.use<KeySetsStage>('keySets', 'issuers[0] (jwks)');
 */
export interface StageBuild {
  readonly config: GuardConfig;
  readonly env: GuardEnv;
  readonly parts: GuardParts;
  readonly observe: Observer;
  readonly issuers: IssuerIndex;
  /** A stage this guard was given, by name; one it was not given is a ConfigError naming `setting`. */
  use: StageUse;
  /** What two stages share (one view, one signer): made by the first that asks. */
  once<T>(key: string, make: () => T): T;
}

/**
 * One stage: its name, and its build for a config (undefined when the config does not use it).
 *
 * @example
 * const headerEcho: GuardStage = { name: 'headerEcho', build: () => ({ answer: (cx, res) => res }) };
 */
export interface GuardStage {
  readonly name: string;
  /**
   * Where it runs in every chain: the built-in stages are numbered in the order defaultStages lists them
   * (stages/index.ts); a stage without a number runs after them, in the order it was given.
   */
  readonly order?: number;
  /**
   * Its optional top-level section of GUARD_CONFIG, keyed by its name (section.ts): read by config-core.ts when
   * the guard is given this stage, left unread (and refused) otherwise. Built-in stages only: GUARD_CONFIG refuses
   * a top-level name that config-description.ts does not describe.
   */
  readonly section?: GuardSection<unknown>;
  build(b: StageBuild): StageHooks | undefined | Promise<StageHooks | undefined>;
}

/**
 * A given stage by name, for the stage that needs its parts; one not given is a ConfigError naming `setting`.
 *
 * @example
 * const use: StageUse = stageLookup([keySets]);
 */
export type StageUse = <T extends GuardStage>(name: string, setting: string) => T;
