// The DPoP stage (RFC 9449), after the claim checks: for an issuer with `dpop`, a
// token sent with the `DPoP` scheme comes with exactly one proof that verifies
// for this request (method, URL, the token's hash, the allowed algorithms, the
// age window, the server nonce when configured), whose key is the token's
// `cnf.jkt`, and whose jti the replay store has not seen. Every request needs its
// own proof, an L1-cached token too: this runs after every verify tier.
// `required` refuses anything else; `allowed` lets an unbound bearer token by
// (a bound one is refused by sender-constraint.ts). The store failing is a 503.

import { checkDpopBinding } from '../../../dpop/binding.js';
import { verifyDpopProof, type DpopProof } from '../../../dpop/proof.js';
import { isJwtError } from '../../../errors.js';
import { ownClaim } from '../../../claims.js';
import type { AfterVerifyStage, Identity } from '../../stage.js';
import type { GuardConfig } from '../../config-core.js';
import type { AuthOutcome, RequestContext } from '../../context.js';
import type { DpopConfig, DpopMode } from './dpop-config.js';
import { DPOP_DESCRIPTIONS, dpopRefusal, replayUnavailable, useDpopNonce, type DpopError } from './dpop-answers.js';
import { DpopNonces } from './dpop-nonce.js';
import {
  durableObjectDpopReplayStore,
  isolateDpopReplayStore,
  type DpopReplayStore,
  type ReplayNamespace,
} from '../../dpop-replay/store.js';
import { ReplayWindow } from '../../dpop-replay/window.js';
import { ConfigError } from '../../config-error.js';
import { withTiming, type Observer } from '../observe/observe.js';
import * as answer from '../../responses.js';

/**
 * Seconds of clock skew allowed on a proof's `iat` at least (clients' clocks drift; the guard's clockTolerance when
 * larger).
 */
export const DPOP_MIN_CLOCK_TOLERANCE = 5;

export interface DpopStageParts {
  config: Pick<GuardConfig, 'issuers' | 'realm' | 'clockTolerance'> & { dpop: DpopConfig };
  store: DpopReplayStore;
  nonces: DpopNonces | undefined;
  now: () => number;
  log: (line: string) => void;
}

/**
 * The stage for a guard whose config has `dpop`.
 *
 * @example
 * const check = dpopStage({
 *   config,
 *   store: isolateDpopReplayStore(),
 *   nonces: undefined,
 *   now: Date.now,
 *   log: console.log,
 * });
 */
export function dpopStage(parts: DpopStageParts): AfterVerifyStage {
  const { config } = parts;
  const modes = new Map<string, DpopMode>();
  for (const is of config.issuers) if (is.dpop !== undefined) for (const name of is.issuer) modes.set(name, is.dpop);
  const algs = config.dpop.algorithms;
  const refuse: Refuse = (cx, id, observe, error, description, code) => {
    observe.count(`rejected:${code}`);
    return observe.refuse(cx, withTiming(dpopRefusal(config.realm, algs, error, description), id.timing), {
      code: code as `dpop_${string}`,
      status: 401,
      iss: id.issuer,
    });
  };
  return (cx, id, observe) => {
    const mode = modes.get(id.issuer);
    if (cx.scheme !== 'dpop') {
      // A bearer token: fine for `allowed` (sender-constraint.ts still refuses a bound one), never for `required`.
      if (mode !== 'required') return undefined;
      return refuse(cx, id, observe, 'invalid_token', DPOP_DESCRIPTIONS.required, 'dpop_required');
    }
    if (mode === undefined) {
      observe.count('rejected:dpop_not_accepted');
      return observe.refuse(
        cx,
        withTiming(answer.invalidToken(config.realm, DPOP_DESCRIPTIONS.notAccepted), id.timing),
        { code: 'dpop_not_accepted', status: 401, iss: id.issuer },
      );
    }
    return checkProof(cx, id, observe, parts, refuse);
  };
}

/** A 401 with a DPoP challenge, counted and logged under `code`. */
type Refuse = (
  cx: RequestContext,
  id: Identity,
  observe: Observer,
  error: DpopError,
  description: string,
  code: string,
) => AuthOutcome;

async function checkProof(
  cx: RequestContext,
  id: Identity,
  observe: Observer,
  parts: DpopStageParts,
  refuse: Refuse,
): Promise<AuthOutcome | undefined> {
  const { dpop, clockTolerance, realm } = parts.config;
  // RFC 9449 §4.3 check 1: one DPoP header. Headers.get joins repeats with ", "; a proof (a JWS) holds no comma.
  const header = cx.request.headers.get('dpop');
  if (header === null || header === '')
    return refuse(cx, id, observe, 'invalid_dpop_proof', DPOP_DESCRIPTIONS.proof, 'dpop_proof_missing');
  if (header.includes(','))
    return refuse(cx, id, observe, 'invalid_dpop_proof', DPOP_DESCRIPTIONS.proof, 'dpop_multiple_proofs');
  // A DPoP-scheme token must be bound: the proof alone says nothing about whose token it is.
  const cnf = ownClaim(id.payload, 'cnf');
  if (typeof cnf !== 'object' || cnf === null || typeof ownClaim(cnf as Record<string, unknown>, 'jkt') !== 'string') {
    return refuse(cx, id, observe, 'invalid_token', DPOP_DESCRIPTIONS.notBound, 'dpop_token_not_bound');
  }
  const now = parts.now();
  const tolerance = Math.max(DPOP_MIN_CLOCK_TOLERANCE, clockTolerance);
  let proof: DpopProof;
  try {
    proof = await verifyDpopProof(header, {
      method: cx.request.method,
      url: cx.request.url,
      algorithms: dpop.algorithms,
      accessToken: cx.token,
      maxAge: dpop.maxAgeSeconds,
      clockTolerance: tolerance,
      currentDate: new Date(now),
    });
    checkDpopBinding(id.payload, proof);
  } catch (e) {
    // Not the proof's fault (a bad option, the runtime): thrown on, for a 500.
    if (!isJwtError(e) || !e.code.startsWith('ERR_DPOP_')) throw e;
    return refuse(cx, id, observe, 'invalid_dpop_proof', DPOP_DESCRIPTIONS.proof, e.code);
  }
  let rotate: string | undefined;
  if (parts.nonces !== undefined) {
    const seen = await parts.nonces.check(proof.nonce, now);
    if (seen === 'invalid') {
      observe.count('rejected:dpop_nonce_required');
      const res = useDpopNonce(realm, dpop.algorithms, await parts.nonces.current(now));
      return observe.refuse(cx, withTiming(res, id.timing), {
        code: proof.nonce === undefined ? 'dpop_nonce_missing' : 'dpop_nonce_stale',
        status: 401,
        iss: id.issuer,
      });
    }
    if (seen === 'previous') rotate = await parts.nonces.current(now);
  }
  // Remembered until no clock within the tolerance could still accept it.
  const expiresAt = Math.ceil(proof.iat + dpop.maxAgeSeconds + tolerance) + 1;
  let fresh: boolean;
  try {
    fresh = await parts.store.checkAndRemember(proof.replayKey, expiresAt);
  } catch (e) {
    // Fail closed: a proof the store could not record may be a replay.
    observe.count('rejected:dpop_replay_unavailable');
    parts.log(
      JSON.stringify({
        edgejwt: 'unavailable',
        code: 'dpop_replay_unavailable',
        reason: e instanceof Error ? e.message.slice(0, 120) : 'unknown',
      }),
    );
    return observe.refuse(cx, withTiming(replayUnavailable(), id.timing), {
      code: 'dpop_replay_unavailable',
      status: 503,
      iss: id.issuer,
    });
  }
  if (!fresh) return refuse(cx, id, observe, 'invalid_dpop_proof', DPOP_DESCRIPTIONS.proof, 'dpop_replayed');
  cx.proven.jkt = proof.jkt;
  if (rotate !== undefined) cx.dpopNonce = rotate;
  return undefined;
}

/**
 * The "isolate" store's one window: module scope, so a guard built again for a fresh env
 * object (one guard is built per env object) still refuses a proof an earlier one accepted.
 */
let isolateWindow: ReplayWindow | undefined;

/**
 * The stage with its replay store and nonces from the Worker's environment (ConfigError naming the setting when a
 * binding is missing).
 *
 * @example
 * const check = await dpopStageFromEnv({ ...config, dpop: config.dpop }, env, { now, log });
 */
export async function dpopStageFromEnv(
  config: DpopStageParts['config'],
  env: Record<string, unknown>,
  deps: { now: () => number; log: (line: string) => void },
): Promise<AfterVerifyStage> {
  const replay = config.dpop.replay;
  let store: DpopReplayStore;
  if (replay.kind === 'isolate')
    store = isolateDpopReplayStore({ now: deps.now, window: (isolateWindow ??= new ReplayWindow()) });
  else {
    const ns = env[replay.binding] as Partial<ReplayNamespace> | undefined;
    if (typeof ns?.idFromName !== 'function' || typeof ns.get !== 'function')
      throw new ConfigError('dpop.replay.durableObject', 'the Durable Object binding is missing');
    store = durableObjectDpopReplayStore(ns as ReplayNamespace, { now: deps.now });
  }
  const secret = config.dpop.nonceSecretBinding;
  const nonces = secret === undefined ? undefined : await DpopNonces.fromSecret(env[secret]);
  return dpopStage({ config, store, nonces, ...deps });
}
