// The Wasm core's known-answer tests at the first use of their family (src/worker/self-test-gate.ts):
// each family's test before its first verify, none for RS/PS/ES, and a failed test final for
// every later verify; the real known answers (HS256, Ed25519) pass; the core families agree
// with the algorithm table.
import { describe, expect, it } from 'vitest';
import { SUPPORTED_ALGORITHMS, algSpec } from '../../src/algorithms.js';
import { Core } from '../../src/wasm/core.js';
import type { OpenedToken, TwoStepVerifier, VerifyResult } from '../../src/verify-path.js';
import { familyTests, SelfTestGate } from '../../src/worker/self-test-gate.js';
import { coreFamily, selfTest, SelfTestFailure, usesWasmCore } from '../../src/worker/self-test.js';
import { ed25519KnownAnswer, hmacKnownAnswer } from '../../src/worker/self-test-core.js';

/** A verifier whose token is its alg: records each verify in `events`, answers at once. */
function recording(events: string[]): TwoStepVerifier {
  const open = (alg: string): OpenedToken => ({ alg, kid: undefined, iss: undefined, proof: undefined });
  const verifyOpened = (o: OpenedToken): VerifyResult => {
    events.push(`verify ${o.alg}`);
    return { payload: {}, header: { alg: o.alg } } as VerifyResult;
  };
  return { open, verifyOpened, verify: async (t) => verifyOpened(open(t)) as never, verifySync: (t) => verifyOpened(open(t)) as never, clearCache: () => undefined };
}

/** A test that records its run and settles a turn later (as a real one does). */
const recorded = (events: string[], name: string, fail?: unknown) => () => new Promise<void>((resolve, reject) => setTimeout(() => (events.push(`test ${name}`), fail === undefined ? resolve() : reject(fail)), 0));

describe('SelfTestGate', () => {
  it('self_test_runs_before_first_use_of_each_family: the HS test before the first HS* verify, the Ed25519 test before the first EdDSA verify, each once', async () => {
    const events: string[] = [];
    const v = new SelfTestGate({ HS: recorded(events, 'HS'), EdDSA: recorded(events, 'EdDSA') }, () => undefined).wrap(recording(events));
    // Two first HS verifies at once share one run of the test.
    await Promise.all([v.verifyOpened(v.open('HS256')), v.verifyOpened(v.open('HS256'))]);
    await v.verifyOpened(v.open('HS512'));
    await v.verifyOpened(v.open('Ed25519'));
    await v.verifyOpened(v.open('EdDSA'));
    expect(events).toEqual(['test HS', 'verify HS256', 'verify HS256', 'verify HS512', 'test EdDSA', 'verify Ed25519', 'verify EdDSA']);
    // Once a family's test passed, its verify answers without a promise (the guard's synchronous path).
    expect(v.verifyOpened(v.open('HS384'))).not.toBeInstanceOf(Promise);
    expect(v.verifySync('EdDSA')).toEqual({ payload: {}, header: { alg: 'EdDSA' } });
  });

  it('rs256_only_request_runs_no_wasm_self_test: RS/PS/ES verifies run no test and wait for none', async () => {
    const events: string[] = [];
    const v = new SelfTestGate({ HS: recorded(events, 'HS'), EdDSA: recorded(events, 'EdDSA') }, () => undefined).wrap(recording(events));
    for (const alg of ['RS256', 'PS384', 'ES256', 'ES512']) expect(v.verifyOpened(v.open(alg))).not.toBeInstanceOf(Promise);
    await new Promise((r) => setTimeout(r, 5));
    expect(events).toEqual(['verify RS256', 'verify PS384', 'verify ES256', 'verify ES512']);
    // The config's families decide which tests exist: RS/ES issuers only, none.
    expect(Object.keys(familyTests(['RS256', 'ES256', 'PS512'], undefined))).toEqual([]);
    expect(Object.keys(familyTests(['HS256', 'RS256'], undefined))).toEqual(['HS']);
  });

  it('failed_self_test_refuses_every_later_verify: the token of the failed family is never verified, and no other is after it', async () => {
    const events: string[] = [];
    const failures: SelfTestFailure[] = [];
    const gate = new SelfTestGate({ HS: recorded(events, 'HS', new SelfTestFailure('HS256, tampered')) }, (e) => void failures.push(e));
    const v = gate.wrap(recording(events));
    await expect(v.verifyOpened(v.open('HS256'))).rejects.toBeInstanceOf(SelfTestFailure);
    expect(() => v.open('RS256')).toThrow(SelfTestFailure);
    expect(() => v.verifyOpened({ alg: 'ES256', kid: undefined, iss: undefined, proof: undefined })).toThrow(SelfTestFailure);
    await expect(v.verify('HS256')).rejects.toBeInstanceOf(SelfTestFailure);
    expect(events).toEqual(['test HS']);
    expect(failures.length).toBe(1);
    expect(gate.failure?.setting).toBe('self-test');
  });

  it('self_test_error_is_a_failure: a test that throws anything fails closed, and an EdDSA family without key policies fails', async () => {
    const events: string[] = [];
    const v = new SelfTestGate({ EdDSA: recorded(events, 'EdDSA', new TypeError('boom')) }, () => undefined).wrap(recording(events));
    await expect(v.verifyOpened(v.open('EdDSA'))).rejects.toBeInstanceOf(SelfTestFailure);
    expect(events).toEqual(['test EdDSA']);
    await expect(familyTests(['EdDSA'], undefined).EdDSA!()).rejects.toBeInstanceOf(SelfTestFailure);
  });

  it('self_test_pending_refuses_verify_sync: before its family passed, verifySync asks for the async form', () => {
    const v = new SelfTestGate({ HS: () => new Promise(() => undefined) }, () => undefined).wrap(recording([]));
    expect(() => v.verifySync('HS256')).toThrow(expect.objectContaining({ code: 'ERR_ASYNC_REQUIRED' }));
  });
});

describe('the known answers and the core families', () => {
  it('self_test_known_answers: the HS256 and Ed25519 known answers pass on this runtime', async () => {
    await expect(selfTest()).resolves.toBeUndefined();
    await expect(hmacKnownAnswer()).resolves.toBeUndefined();
    await expect(ed25519KnownAnswer()).resolves.toBeUndefined();
  });

  it('core_known_answer_catches_miscompiled_core: a core whose verify accepts everything, or refuses everything, fails its family\'s known answer', async () => {
    const verify = Core.prototype.verify;
    for (const broken of [() => true, () => false]) {
      Core.prototype.verify = broken;
      try {
        await expect(hmacKnownAnswer()).rejects.toBeInstanceOf(SelfTestFailure);
        await expect(ed25519KnownAnswer()).rejects.toBeInstanceOf(SelfTestFailure);
      } finally {
        Core.prototype.verify = verify;
      }
    }
    // A decode that gives other payload bytes fails too.
    const decodeJws = Core.prototype.decodeJws;
    Core.prototype.decodeJws = function (this: Core, token: string, h: number, p: number) {
      const d = decodeJws.call(this, token, h, p);
      return Object.assign(Object.create(Object.getPrototypeOf(d) as object) as typeof d, d, { payload: d.payload?.replace('self-test', 'self-tesu') });
    };
    try {
      await expect(hmacKnownAnswer()).rejects.toBeInstanceOf(SelfTestFailure);
    } finally {
      Core.prototype.decodeJws = decodeJws;
    }
    await expect(hmacKnownAnswer()).resolves.toBeUndefined();
  });

  it('core_family_matches_algorithm_table: an algorithm has a core family exactly when the core verifies it (both names of Ed25519 included)', () => {
    for (const a of SUPPORTED_ALGORITHMS) expect(coreFamily(a) !== undefined, a).toBe(algSpec(a)!.wasm);
    expect(usesWasmCore(['Ed25519'])).toBe(true);
    expect(Object.keys(familyTests(['Ed25519'], ed25519KnownAnswer))).toEqual(['EdDSA']);
  });
});
