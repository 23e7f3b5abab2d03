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
// A config of RS*, PS* and ES* only is not rehearsed: its guard never starts the Wasm core,
// and the self-test's HS256 token would start it.

import type { GuardParts } from './build.js';
import type { GuardConfig, IssuerConfig } from './config.js';
import { Counters } from './counters.js';
import { Guard } from './guard.js';
import { RejectionLog } from './rejection-log.js';
import { SELF_TEST, selfTestVerifier, usesWasmCore } from './self-test.js';
import { senderConstraintStage } from './sender-constraint.js';

/** The rehearsal's one issuer: the self-test's, bound to its own audience. */
const REHEARSAL_ISSUER: IssuerConfig = {
  issuer: [SELF_TEST.issuer],
  audience: [SELF_TEST.issuer],
  claims: {},
  algorithms: ['HS256'],
  source: { kind: 'secret', binding: '' },
};

const quiet = (): void => undefined;
/** Where the rehearsal's forward goes instead of the origin. */
const sink = (): Promise<Response> => Promise.resolve(new Response(null, { status: 204 }));

/**
 * The parts of the rehearsal's Guard: the real guard's pure pieces (config apart from its
 * issuers and stateful sections, token reader, CORS, rules, reserved paths, payload header,
 * the service request's builder, the clock), everything that holds state or reaches out new or left out.
 *
 * @example
 * const g = new Guard(rehearsalParts(guard.parts));
 */
export function rehearsalParts(real: GuardParts): GuardParts {
  const config: GuardConfig = { ...real.config, issuers: [REHEARSAL_ISSUER], admin: undefined, revocation: undefined, dpop: undefined, originAssertion: undefined };
  const now = real.now;
  // The self-test's checked policy (no option code in the bundle), with the config's clock tolerance.
  const verifier = selfTestVerifier('HS256', SELF_TEST.key, config.clockTolerance);
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

/** The rehearsal's request: the self-test token where the config reads tokens first. */
function rehearsalRequest(config: GuardConfig): Request {
  const source = config.tokenSources[0];
  const headers = new Headers();
  if (source !== undefined && 'cookie' in source) headers.set('cookie', `${source.cookie}=${SELF_TEST.token}`);
  else headers.set(source?.header ?? 'authorization', `Bearer ${SELF_TEST.token}`);
  return new Request('https://rehearsal.invalid/rehearsal', { headers });
}

/**
 * Run one synthetic request through a rehearsal Guard over `guard`'s parts; resolves once it
 * is answered, never rejects (a fault is dropped: the real guard serves regardless).
 *
 * @example
 * guardPromise.then(rehearse, () => undefined);
 */
export async function rehearse(guard: Guard): Promise<void> {
  try {
    if (!usesWasmCore(guard.parts.config.issuers.flatMap((is) => is.algorithms))) return;
    const parts = rehearsalParts(guard.parts);
    const res = await new Guard(parts).handle(rehearsalRequest(parts.config), { waitUntil: (p) => void p.catch(quiet) });
    await res.body?.cancel();
  } catch {
    // Only a warm-up: the real guard is untouched and serves whatever happened here.
  }
}
