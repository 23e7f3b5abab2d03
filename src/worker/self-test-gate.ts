// The Wasm core's known-answer tests run at the first use of the family they test, not
// before the guard serves anything: the first HS256 verify waits for the HMAC-SHA-256
// test (HS384 and HS512 for their own), the first EdDSA verify for the Ed25519 test, and
// a request on RS/PS/ES runs none (the core verifies none of them). In a fresh Worker Loader isolate, whose module is
// evaluated inside the first request, the module-scope self-test was on every first
// request's path (bench/guard/cold-notes.md). Fail closed: a token of a family whose
// test has not passed is never verified, and once a test fails every later verify (any
// family) throws that failure, whatever the caller does with it.

import { JwtError } from '../errors.js';
import type { OpenedToken, TwoStepVerifier, VerifyResult } from '../verify-path.js';
import type { AfterVerifyStage } from './after-verify.js';
import { coreFamily, SelfTestFailure, type CoreFamily } from './self-test.js';
import { hmacKnownAnswer, hmacSha2KnownAnswer } from './self-test-core.js';

/**
 * The gate over a guard's verifiers: one per isolate, so a test passes or fails once for every guard it serves.
 *
 * @example
 * const gate = new SelfTestGate({ HS: selfTest }, (e) => refuseEverything(e));
 * parts.verifier = gate.wrap(parts.verifier);
 */
export class SelfTestGate {
  readonly #tests: Partial<Record<CoreFamily, () => Promise<void>>>;
  readonly #onFailure: (e: SelfTestFailure) => void;
  readonly #passed = new Set<CoreFamily>();
  readonly #running = new Map<CoreFamily, Promise<void>>();
  #failure: SelfTestFailure | undefined;

  /** `tests`: the families the config verifies (a family without one is never accepted by its verifier). */
  constructor(tests: Partial<Record<CoreFamily, () => Promise<void>>>, onFailure: (e: SelfTestFailure) => void) {
    this.#tests = tests;
    this.#onFailure = onFailure;
  }

  /** The failed test, once one failed. */
  get failure(): SelfTestFailure | undefined {
    return this.#failure;
  }

  /**
   * `verifier` with each family's first verify behind its test.
   *
   * @example
   * const gated = gate.wrap(buildTwoStepVerifierWith(options, hmacPolicy));
   */
  wrap(verifier: TwoStepVerifier): TwoStepVerifier {
    const open = (token: string): OpenedToken => {
      if (this.#failure !== undefined) throw this.#failure;
      return verifier.open(token);
    };
    const verifyOpened = (opened: OpenedToken): VerifyResult | Promise<VerifyResult> => {
      const waiting = this.#before(opened.alg);
      return waiting === undefined ? verifier.verifyOpened(opened) : waiting.then(() => verifier.verifyOpened(opened));
    };
    return {
      open,
      verifyOpened,
      verify: async <P>(token: string) => (await verifyOpened(open(token))) as VerifyResult<P>,
      verifySync: <P>(token: string) => {
        const opened = open(token);
        // Before its family's test has passed, a verify must wait: the async form runs it.
        if (this.#before(opened.alg) !== undefined) throw new JwtError('ERR_ASYNC_REQUIRED', { reason: 'the self-test of the Wasm core runs first' });
        return verifier.verifySync<P>(token);
      },
      clearCache: () => verifier.clearCache(),
    };
  }

  /**
   * `stages` (those after the verify) behind a first one that holds a request carrying a
   * DPoP proof until the known answers of the proof `algorithms`' core families (EdDSA)
   * have passed: the DPoP stage verifies proofs on the core outside the gated verifier.
   *
   * @example
   * parts.afterVerify = gate.beforeProofs(parts.afterVerify, config.dpop?.algorithms ?? []);
   */
  beforeProofs(stages: readonly AfterVerifyStage[], algorithms: readonly string[]): AfterVerifyStage[] {
    const core = algorithms.filter((a) => coreFamily(a) !== undefined);
    if (core.length === 0) return [...stages];
    const wait: AfterVerifyStage = (cx) => {
      if (cx.scheme !== 'dpop' && !cx.request.headers.has('dpop')) return undefined;
      const waits: Promise<void>[] = [];
      for (const a of core) {
        const w = this.#before(a);
        if (w !== undefined) waits.push(w);
      }
      return waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
    };
    return [wait, ...stages];
  }

  /** undefined when `alg` may be verified now; else the test it waits for (which throws on failure). */
  #before(alg: string): Promise<void> | undefined {
    if (this.#failure !== undefined) throw this.#failure;
    const family = coreFamily(alg);
    if (family === undefined || this.#passed.has(family)) return undefined;
    const test = this.#tests[family];
    if (test === undefined) return undefined;
    let run = this.#running.get(family);
    if (run === undefined) {
      run = test().then(
        () => void this.#passed.add(family),
        (e: unknown) => {
          // Anything a test throws is a failure: the family is not trusted.
          const failure = e instanceof SelfTestFailure ? e : new SelfTestFailure(`${family}, ${e instanceof Error ? e.name : 'error'}`);
          if (this.#failure === undefined) {
            this.#failure = failure;
            this.#onFailure(failure);
          }
          throw this.#failure;
        },
      );
      this.#running.set(family, run);
    }
    return run;
  }
}

/**
 * The known-answer test of each core family among `algorithms` (self-test-core.ts): HMAC-SHA-256
 * for HS256, HMAC-SHA-384 for HS384, HMAC-SHA-512 for HS512, Ed25519 for EdDSA. The Ed25519 one comes with the keySets feature, which every EdDSA
 * issuer needs, or the dpop feature for EdDSA proofs (so an HMAC-only bundle holds no Ed25519 code); without it the EdDSA test fails, closed.
 *
 * @example
 * new SelfTestGate(familyTests(['HS256', 'RS256'], undefined), stop); // HS only
 */
export function familyTests(algorithms: Iterable<string>, ed25519Test: (() => Promise<void>) | undefined): Partial<Record<CoreFamily, () => Promise<void>>> {
  const tests: Partial<Record<CoreFamily, () => Promise<void>>> = {};
  for (const a of algorithms) {
    const family = coreFamily(a);
    if (family === 'HS') tests.HS = hmacKnownAnswer;
    // HS384 and HS512 run on the core's SHA-512 code, which the HMAC-SHA-256 answer never reaches.
    else if (family === 'HS384' || family === 'HS512') tests[family] = () => hmacSha2KnownAnswer(family);
    else if (family === 'EdDSA') tests.EdDSA = ed25519Test ?? (() => Promise.reject(new SelfTestFailure('EdDSA, without the keySets feature')));
  }
  return tests;
}
