// maxTokenAge per issuer: the library's own check (src/claims.ts) reached from the
// guard's config. An old iat is refused, a missing iat is refused, an iat in the
// future beyond clockTolerance is refused, and the guard's caches never serve a
// token past its max age.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/worker/config.js';
import {
  CACHE_KEY,
  HS_ISS,
  AUD,
  baseConfig,
  bearer,
  demoKeys,
  makeGuard,
  nowSeconds,
  token,
  type Keys,
} from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

/** baseConfig with maxTokenAge (and clockTolerance) on the HS issuer. */
function aged(maxTokenAge: number, clockTolerance = 0): Record<string, unknown> {
  const c = baseConfig(k, { clockTolerance });
  const issuers = (c.issuers as Record<string, unknown>[]).map((is) =>
    is.issuer === HS_ISS ? { ...is, maxTokenAge } : is,
  );
  return { ...c, issuers };
}

describe('maxTokenAge', () => {
  it(
    'max_token_age_refuses_old_iat: an iat older than maxTokenAge is refused, a younger one passes, a missing ' +
      'one is refused',
    async () => {
      const g = await makeGuard(k, { config: aged(60) });
      const t = nowSeconds();
      expect((await g.send('/x', bearer(await token(k.hs, { iat: t - 10 })))).status).toBe(200);
      const old = await g.send('/x', bearer(await token(k.hs, { iat: t - 600 })));
      expect(old.status).toBe(401);
      expect(old.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect((await g.send('/x', bearer(await token(k.hs, { iat: undefined })))).status).toBe(401);
      // Another issuer without maxTokenAge: its old tokens still pass.
      expect((await g.send('/x', bearer(await token(k.ed, { iat: t - 600 })))).status).toBe(200);
    },
  );

  it(
    'future_iat_refused: with maxTokenAge an iat later than now + clockTolerance is refused; within the ' +
      'tolerance it passes',
    async () => {
      const g = await makeGuard(k, { config: aged(3600, 30) });
      const t = nowSeconds();
      expect((await g.send('/x', bearer(await token(k.hs, { iat: t + 600 })))).status).toBe(401);
      expect(g.logs.some((l) => l.includes('"claim":"iat"'))).toBe(true);
      expect((await g.send('/x', bearer(await token(k.hs, { iat: t + 10 })))).status).toBe(200);
    },
  );

  it('max_token_age_bounds_l1: a token verified once is not served from the L1 cache past its max age', async () => {
    let now = Date.now();
    const g = await makeGuard(k, { config: aged(60), deps: { now: () => now } });
    const tk = await token(k.hs, { iat: nowSeconds() - 30, exp: nowSeconds() + 3600 });
    expect((await g.send('/x', bearer(tk))).status).toBe(200);
    now += 1000;
    expect((await g.send('/x', bearer(tk))).status).toBe(200);
    expect(g.guard.counters.get('l1_hit')).toBe(1);
    // 40 s on, the token is 70 s old: the L1 entry no longer holds (the library's own
    // clock did not move, so its verify still passes; what counts is that L1 did not answer).
    now += 40_000;
    await g.send('/x', bearer(tk));
    expect(g.guard.counters.get('l1_hit')).toBe(1);
  });

  it("max_token_age_bounds_l2: a KV entry is not served past the token's max age, by any instance", async () => {
    const config = { ...aged(60), cache: { verify: 'all', kvTimeoutMs: 25, verifyAdmission: 'always' } };
    const tk = await token(k.hs, {
      sub: `aged-${crypto.randomUUID()}`,
      iat: nowSeconds() - 30,
      exp: nowSeconds() + 3600,
    });
    const a = await makeGuard(k, { config, env: { CACHE_KEY } });
    expect((await a.send('/x', bearer(tk))).status).toBe(200);
    expect(a.guard.counters.get('l2_write')).toBe(1);
    // Another isolate 1 s later is served from KV...
    const soon = await makeGuard(k, { config, env: { CACHE_KEY }, deps: { now: () => Date.now() + 1000 } });
    expect((await soon.send('/x', bearer(tk))).status).toBe(200);
    expect(soon.guard.counters.get('l2_hit')).toBe(1);
    // ...one 40 s later (the token is then 70 s old) is not: the entry's window ends at iat + maxTokenAge.
    const late = await makeGuard(k, { config, env: { CACHE_KEY }, deps: { now: () => Date.now() + 40_000 } });
    await late.send('/x', bearer(tk));
    expect(late.guard.counters.get('l2_hit')).toBe(0);
  });

  it('maxTokenAge is whole seconds from 1 to one year; anything else names the setting', () => {
    for (const bad of [0, -1, 1.5, '60', 31_536_001, null]) {
      expect(() =>
        parseConfig({
          issuers: [
            { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY', maxTokenAge: bad },
          ],
        }),
      ).toThrow(/issuers\[0\]\.maxTokenAge/);
    }
    expect(
      parseConfig({
        issuers: [{ issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY', maxTokenAge: 300 }],
      }).issuers[0]!.maxTokenAge,
    ).toBe(300);
  });
});
