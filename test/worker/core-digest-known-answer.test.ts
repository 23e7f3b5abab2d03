// The core's digest outside the verify path (src/digest.ts: KV verify-cache keys, key tags,
// DPoP ath and thumbprints) is checked against a known answer at its first use. The guard's
// self-test (HS256, only for configs with an HS*/EdDSA issuer) does not reach it: an RS256
// token's KV lookup hashes the token before any verify, and with a miscompiled core every
// token of the same first bytes shared one KV key, so a forged token was served the claims
// another token had proved.
// Its own file: the digest's check runs once per isolate, and it must run under the fault.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGuard, keySets, kvTiers } from '../../src/worker/api.js';
import { Core } from '../../src/wasm/core.js';
import { b64u, generate } from '../shared/jwt-mint.js';
import { AUD, CACHE_KEY, HS_ISS, ISS, TestCtx, bearer, demoKeys, jwksOf, kv, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

describe('core_digest_known_answer_before_kv_lookup', () => {
  it(
    'a core whose input copy is broken never gives a KV key: a forged RS256 token is not served the claims of ' +
      'a verified one',
    async () => {
      const raw = {
        issuers: [
          { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' },
          { issuer: ISS, audience: AUD, algorithms: ['RS256'], jwks: jwksOf(k.rs) },
        ],
        origin: 'builtin:echo',
        cache: { verify: ['RS256'], verifyAdmission: 'always', jwks: false },
      };
      const worker = createGuard(raw as never, { stages: [keySets, kvTiers] });
      const env = { HS_KEY: b64u(k.hs.secret!), VERIFY_CACHE: kv.VERIFY_CACHE, CACHE_KEY };
      // Miscompiled: the core copies at most 16 bytes of a string input (every token starts alike).
      const writeInput = Core.prototype.writeInput;
      vi.spyOn(Core.prototype, 'writeInput').mockImplementation(function (this: Core, data) {
        return writeInput.call(this, typeof data === 'string' ? data.slice(0, 16) : data);
      });
      const victim = await token(k.rs, { sub: 'victim-user' });
      const first = new TestCtx();
      const v = await worker.fetch(new Request('https://api.example.com/x', bearer(victim)), env, first);
      await first.settle();
      // Signed by a key nobody configured, under the configured kid.
      const other = { ...(await generate('RS256')), kid: k.rs.kid };
      const forgedToken = await token(other, { sub: 'attacker' });
      const res = await worker.fetch(new Request('https://api.example.com/x', bearer(forgedToken)), env, new TestCtx());
      expect(res.status).not.toBe(200);
      expect(await res.text()).not.toContain('victim-user');
      // The fault is the server's, not the token's: no request is answered as verified.
      expect(v.status).not.toBe(200);
    },
  );
});
