// The core's Ed25519 verify is checked against RFC 8032's TEST 2 before an isolate's first
// Ed25519 key is imported (src/wasm/ed25519-known-answer.ts): the guard's self-test runs HMAC
// only, so a core whose Ed25519 verify accepted any signature served a forged EdDSA token.
// Its own file: the check runs once per isolate, and it must run under the fault.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGuard, keySets } from '../../src/worker/api.js';
import { Core } from '../../src/wasm/core.js';
import { AUD, ISS, TestCtx, bearer, demoKeys, forged, jwksOf, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

describe('ed25519_known_answer_before_first_import', () => {
  it(
    'a core whose Ed25519 verify accepts everything never serves a forged EdDSA token, and stays refused once ' +
      'sound again',
    async () => {
      const raw = {
        issuers: [{ issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: jwksOf(k.ed) }],
        origin: 'builtin:echo',
        cache: { jwks: false },
      };
      const worker = createGuard(raw, { stages: [keySets] });
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      vi.spyOn(console, 'log').mockImplementation(() => undefined);
      // Miscompiled: the core's Ed25519 verify says yes to any signature (HMAC is sound).
      const verify = Core.prototype.verify;
      vi.spyOn(Core.prototype, 'verify').mockImplementation(function (this: Core, scheme, slot, signed) {
        return scheme === 'ed25519' ? true : verify.call(this, scheme, slot, signed);
      });
      const attack = await forged('EdDSA', { sub: 'attacker' });
      const res = await worker.fetch(new Request('https://api.example.com/x', bearer(attack)), {}, new TestCtx());
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('attacker');
      // The failure is final for the isolate: a sound core afterwards does not make it trusted again.
      vi.mocked(Core.prototype.verify).mockRestore();
      const good = await token(k.ed, { sub: 'alice' });
      const again = await worker.fetch(new Request('https://api.example.com/x', bearer(good)), {}, new TestCtx());
      expect(again.status).toBe(500);
    },
  );
});
