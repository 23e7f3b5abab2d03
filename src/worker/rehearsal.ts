// A rehearsal at startup: once `warm` has built the guard (and the known-answer self-test
// passed), one synthetic request runs through the guard's own chain (route, path,
// credential, the verify tiers, the claim checks, forward, observe, the response), so a
// fresh isolate's first client request finds that code compiled instead of compiling it
// on the client's time. It runs on a Guard of its own whose parts are rebuilt, not shared:
//  - the only issuer is the self-test's (self-test.ts), verified with the self-test's
//    public key; no real key signs or verifies anything, and the real guard never sees it;
//  - counters, rejection log and log go nowhere; no analytics, no L2 (KV), no key-set
//    store, no origin assertion, no admin, revocation, DPoP or mTLS stage (their stores, real keys);
//  - the forward reaches a sink: the configured URL origin and service binding are never called;
//  - its L1 is its own (a new VerifyTiers), dropped with it.
// It is never reachable from the network, and any fault in it is dropped: it is only a warm-up.
// At module scope workerd refuses to build a Response with a body, so there a rehearsal can end
// in a throw at the forward or the answer: the steps before it (most of the chain) still ran.
// A config of RS*, PS* and ES* only is not rehearsed: its guard never starts the Wasm core,
// and the self-test's HS256 token would start it. A config that allows HS* rehearses the
// HS256 token; one that allows EdDSA (or Ed25519) rehearses an EdDSA token too
// (rehearsal-eddsa.ts: a public RFC 8032 key, reached through the keySets feature every
// EdDSA config uses), which takes the core's Ed25519 known answer, import and verify before
// a client's request does. An EdDSA-only config rehearses EdDSA only: the chain is the same,
// the HMAC code is the self-test's, and each pass costs about a request; with both, the EdDSA
// token is only verified (the HS256 rehearsal went through the chain).

import type { GuardParts } from './build.js';
import type { GuardConfig } from './config.js';
import { Counters } from './counters.js';
import { Guard } from './guard.js';
import { RejectionLog } from './rejection-log.js';
import type { RehearsalVector } from './rehearsal-eddsa.js';
import { SELF_TEST, coreFamily, selfTestIssuer, selfTestVerifier } from './self-test.js';
import { senderConstraintStage } from './sender-constraint.js';

const quiet = (): void => undefined;
/** Where the rehearsal's forward goes instead of the origin. */
const sink = (): Promise<Response> => Promise.resolve(new Response(null, { status: 204 }));

/**
 * The parts of the rehearsal's Guard: the real guard's pure pieces (config apart from its
 * issuers and stateful sections, token reader, CORS, rules, reserved paths, payload header,
 * the service request's builder, the clock), everything that holds state or reaches out new or left out;
 * the verifier is the self-test's HS256 one, or the EdDSA rehearsal's `eddsa` (rehearsal-eddsa.ts).
 *
 * @example
 * const g = new Guard(rehearsalParts(guard.parts));
 */
export function rehearsalParts(real: GuardParts, eddsa?: RehearsalVector): GuardParts {
  const config: GuardConfig = { ...real.config, issuers: [selfTestIssuer(eddsa === undefined ? 'HS256' : 'EdDSA')], admin: undefined, revocation: undefined, dpop: undefined, originAssertion: undefined };
  const now = real.now;
  // The self-test's checked policy (no option code in the bundle), with the config's clock tolerance.
  const verifier = eddsa?.verifier ?? selfTestVerifier('HS256', SELF_TEST.key, config.clockTolerance);
  return {
    config,
    verifier,
    counters: new Counters(quiet, 0, now),
    rejections: new RejectionLog(quiet, now),
    analytics: undefined,
    jwksStore: undefined,
    remoteSets: [],
    tokens: real.tokens,
    afterVerify: [senderConstraintStage(config.realm, undefined)],
    revocationAdmin: undefined,
    fetch: sink,
    now,
    log: quiet,
    cors: real.cors,
    rules: real.rules,
    reserved: real.reserved,
    payloadHeader: real.payloadHeader,
    service: real.service === undefined ? undefined : { request: real.service.request, fetch: sink },
  };
}

/** The rehearsal's request: `token` where the config reads tokens first. */
function rehearsalRequest(config: GuardConfig, token: string): Request {
  const source = config.tokenSources[0];
  const headers = new Headers();
  if (source !== undefined && 'cookie' in source) headers.set('cookie', `${source.cookie}=${token}`);
  else headers.set(source?.header ?? 'authorization', `Bearer ${token}`);
  return new Request('https://rehearsal.invalid/rehearsal', { headers });
}

/** One synthetic request through a rehearsal Guard of its own over `real`: the HS256 token, or `eddsa`'s. */
async function rehearseOnce(real: GuardParts, eddsa?: RehearsalVector): Promise<void> {
  const parts = rehearsalParts(real, eddsa);
  const token = eddsa?.token ?? SELF_TEST.token;
  const res = await new Guard(parts).handle(rehearsalRequest(parts.config, token), { waitUntil: (p) => void p.catch(quiet) });
  await res.body?.cancel();
}

/**
 * Run one synthetic request through a rehearsal Guard over `guard`'s parts for each of the
 * Wasm core's families the config allows (HS*: the self-test's token; EdDSA: rehearsal-eddsa.ts's);
 * resolves once they are answered, never rejects (a fault is dropped: the real guard serves regardless).
 *
 * @example
 * guardPromise.then(rehearse, () => undefined);
 */
export async function rehearse(guard: Guard): Promise<void> {
  let real: GuardParts;
  let families: Set<string | undefined>;
  try {
    real = guard.parts;
    families = new Set(real.config.issuers.flatMap((is) => is.algorithms.map(coreFamily)));
  } catch {
    return; // Only a warm-up: the real guard is untouched and serves whatever happened here.
  }
  // Each family on its own: at module scope workerd refuses to build a response with a body (the
  // echo origin's, a 500's), so a rehearsal can end in a throw after its verify has run, and the
  // next family must still get its turn.
  if (families.has('HS')) await dropped(() => rehearseOnce(real));
  // An EdDSA issuer has a key set, so the keySets feature (which brings the vector) is there.
  if (families.has('EdDSA')) await dropped(() => (real.eddsaRehearsal === undefined ? undefined : eddsaOnce(real, real.eddsaRehearsal(real.config.clockTolerance), families.has('HS'))));
}

/**
 * The EdDSA rehearsal: through the whole chain when it is the only one, else its verify alone (the
 * chain was rehearsed by the HS256 token; where startup is inside the first request, each
 * rehearsed request costs about one request).
 */
async function eddsaOnce(real: GuardParts, eddsa: RehearsalVector, chainDone: boolean): Promise<void> {
  if (!chainDone) return rehearseOnce(real, eddsa);
  await eddsa.verifier.verifyOpened(eddsa.verifier.open(eddsa.token));
}

/** Runs `step`, dropping whatever it throws or rejects with. */
async function dropped(step: () => Promise<void> | undefined): Promise<void> {
  try {
    await step();
  } catch {
    // Only a warm-up.
  }
}
