// The Wasm core's known-answer tests run at the first use of the family they test, not
// before the guard serves anything: the first HS* verify waits for the HMAC test, the
// first EdDSA verify for the Ed25519 test, and a request on RS/PS/ES runs none (the
// core verifies none of them). In a fresh Worker Loader isolate, whose module is
// evaluated inside the first request, the module-scope self-test was on every first
// request's path (bench/guard/cold-notes.md). Fail closed: a token of a family whose
// test has not passed is never verified, and once a test fails every later verify (any
// family) throws that failure, whatever the caller does with it.

import { JwtError } from '../errors.js';
import type { OpenedToken, TwoStepVerifier, VerifyResult } from '../verify-path.js';
import { coreFamily, SelfTestFailure, type CoreFamily } from './self-test.js';
import { hmacKnownAnswer } from './self-test-core.js';

/** Each core family's test (familyTests). */
export type FamilyTests = Partial<Record<CoreFamily, () => Promise<void>>>;

/**
 * The gate over a guard's verifiers: one per isolate, so a test passes or fails once for every guard it serves.
 *
 * @example
 * const gate = selfTestGate(familyTests(algorithms, keySets?.ed25519KnownAnswer), (e) => refuseEverything(e));
 * parts.verifier = gate.wrap(parts.verifier);
 */
export interface SelfTestGate {
  /** `verifier` with each family's first verify behind its test. */
  wrap(verifier: TwoStepVerifier): TwoStepVerifier;
  /** The failed test, once one failed. */
  failure(): SelfTestFailure | undefined;
  /** Run every family's test now (at module scope, where it is off a fresh process's first request); rejects on a failure. */
  prime(): Promise<void>;
}

/**
 * The gate for `tests` (the families the config verifies: a family without one is never accepted by its verifier);
 * `onFailure` hears the first failure, once.
 *
 * @example
 * const gate = selfTestGate({ HS: hmacKnownAnswer }, (e) => guard.stop(e));
 */
export function selfTestGate(tests: FamilyTests, onFailure: (e: SelfTestFailure) => void): SelfTestGate {
  const passed = new Set<CoreFamily>();
  const running = new Map<CoreFamily, Promise<void>>();
  let failure: SelfTestFailure | undefined;
  // undefined when `alg` may be verified now; else the test it waits for (which rejects on failure).
  const before = (alg: string): Promise<void> | undefined => {
    if (failure !== undefined) throw failure;
    const family = coreFamily(alg);
    const test = family === undefined || passed.has(family) ? undefined : tests[family];
    if (test === undefined) return undefined;
    let run = running.get(family!);
    if (run === undefined) {
      run = test().then(
        () => void passed.add(family!),
        (e: unknown) => {
          // Anything a test throws is a failure: the family is not trusted.
          if (failure === undefined) onFailure((failure = e instanceof SelfTestFailure ? e : new SelfTestFailure(family!)));
          throw failure;
        },
      );
      running.set(family!, run);
    }
    return run;
  };
  return {
    failure: () => failure,
    prime: () => Promise.resolve().then(() => Promise.all((Object.keys(tests) as CoreFamily[]).map((f) => before(f === 'HS' ? 'HS256' : f)))).then(() => undefined),
    wrap(verifier) {
      const open = (token: string): OpenedToken => {
        if (failure !== undefined) throw failure;
        return verifier.open(token);
      };
      const verifyOpened = (opened: OpenedToken): VerifyResult | Promise<VerifyResult> => {
        const waiting = before(opened.alg);
        return waiting === undefined ? verifier.verifyOpened(opened) : waiting.then(() => verifier.verifyOpened(opened));
      };
      return {
        open,
        verifyOpened,
        verify: async <P>(token: string) => (await verifyOpened(open(token))) as VerifyResult<P>,
        verifySync: <P>(token: string) => {
          // Before its family's test has passed, a verify must wait: the async form runs it.
          if (before(open(token).alg) !== undefined) throw new JwtError('ERR_ASYNC_REQUIRED');
          return verifier.verifySync<P>(token);
        },
        clearCache: () => verifier.clearCache(),
      };
    },
  };
}

/**
 * The known-answer test of each core family among `algorithms` (self-test-core.ts): HMAC-SHA-256
 * for HS*, Ed25519 for EdDSA. The Ed25519 one comes with the keySets feature, which every EdDSA
 * issuer needs (so an HMAC-only bundle holds no Ed25519 code); without it the EdDSA test fails, closed.
 *
 * @example
 * selfTestGate(familyTests(['HS256', 'RS256'], undefined), stop); // HS only
 */
export function familyTests(algorithms: Iterable<string>, ed25519Test: (() => Promise<void>) | undefined): FamilyTests {
  const tests: FamilyTests = {};
  for (const a of algorithms) {
    const family = coreFamily(a);
    if (family === 'HS') tests.HS = hmacKnownAnswer;
    else if (family === 'EdDSA') tests.EdDSA = ed25519Test ?? (() => Promise.reject(new SelfTestFailure('EdDSA')));
  }
  return tests;
}
