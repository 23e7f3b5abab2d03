// The verify stage (src/worker/stages/verify/verify-tiers.ts) on its own: built from its parts
// (build.ts) and called without the rest of the chain. L1 answers a token seen
// before without a promise; L2 (KV) is asked only for the algorithms cache.verify names.
import { beforeAll, describe, expect, it } from 'vitest';
import type { GuardEnv, GuardParts } from '../../../../src/worker/build.js';
import { startGuard } from '../../../../src/worker/start.js';
import { defaultStages } from '../../../../src/worker/stages/index.js';
import { IssuerIndex } from '../../../../src/worker/issuer-index.js';
import { VerifyTiers } from '../../../../src/worker/stages/verify/verify-tiers.js';
import { b64u } from '../../../shared/jwt-mint.js';
import {
  AUD,
  CACHE_KEY,
  FaultyKV,
  ISS,
  TestCtx,
  baseConfig,
  demoKeys,
  forged,
  freshJwksUrl,
  jwksOf,
  kv,
  mockNet,
  token,
  type Keys,
} from '../../harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

async function partsFor(config: Record<string, unknown>, env: Partial<GuardEnv> = {}): Promise<GuardParts> {
  const full: GuardEnv = { GUARD_CONFIG: JSON.stringify(config), HS_KEY: b64u(k.hs.secret!), ...env };
  return startGuard(
    full,
    { fetch: mockNet(jwksOf(k.ed, k.rs)).fetch, log: () => undefined },
    undefined,
    defaultStages,
  ).then((g) => g.parts);
}

// As the verify stage makes it: with the kvTiers part's L2 (parts.l2) when cache.verify is on.
const tiersOf = (parts: GuardParts) => new VerifyTiers(parts, new IssuerIndex(parts.config.issuers));

describe('verify stage (verify-tiers.ts): L1, L2, the library', () => {
  it(
    'stage_verify_l1_hit_without_promise: a token verified once is answered from L1 without a promise, ' +
      'async algorithm or not',
    async () => {
      const parts = await partsFor(baseConfig(k));
      const tiers = tiersOf(parts);
      const ctx = new TestCtx();
      for (const pair of [k.rs, k.ed, k.hs]) {
        const t = await token(pair);
        const first = await tiers.verify(t, ctx, { opened: undefined });
        expect(first.level).toBe('verify');
        const again = tiers.verify(t, ctx, { opened: undefined });
        expect(again).not.toBeInstanceOf(Promise);
        expect(again).toMatchObject({ level: 'l1', payload: { sub: 'alice' } });
        expect(Object.isFrozen((again as { payload: object }).payload)).toBe(true);
      }
      expect(parts.counters.get('l1_hit')).toBe(3);
      expect(tiers.l1Size).toBe(3);
    },
  );

  it(
    'stage_verify_sync_without_l2: HS256 without L2 verifies without a promise; ' + 'cache.l1Max 0 keeps no L1',
    async () => {
      const tiers = tiersOf(await partsFor(baseConfig(k, { cache: { l1Max: 0 } })));
      const t = await token(k.hs);
      for (let i = 0; i < 2; i++) {
        const v = tiers.verify(t, new TestCtx(), { opened: undefined });
        expect(v).not.toBeInstanceOf(Promise);
        expect(v).toMatchObject({ level: 'verify' });
      }
      expect(tiers.l1Size).toBe(0);
    },
  );

  it(
    "stage_verify_l2_only_for_configured_algs: KV is read for cache.verify's algorithms only, never for an " +
      'unconfigured issuer',
    async () => {
      const verifyKv = new FaultyKV(kv.VERIFY_CACHE);
      const config = baseConfig(k, {
        issuers: [{ issuer: ISS, audience: AUD, algorithms: ['EdDSA', 'RS256'], jwksUrl: freshJwksUrl() }],
        cache: { verify: ['RS256'] },
      });
      const parts = await partsFor(config, { CACHE_KEY, VERIFY_CACHE: verifyKv, JWKS_CACHE: kv.JWKS_CACHE });
      expect(parts.l2).toBeDefined();
      const tiers = tiersOf(parts);
      const ctx = new TestCtx();
      for (const sub of ['e1', 'e2', 'e3'])
        expect((await tiers.verify(await token(k.ed, { sub }), ctx, { opened: undefined })).level).toBe('verify');
      expect(verifyKv.gets).toBe(0);

      const stranger = await forged('RS256', { iss: 'https://elsewhere.example' });
      await expect(Promise.resolve().then(() => tiers.verify(stranger, ctx, { opened: undefined }))).rejects.toThrow();
      expect(verifyKv.gets).toBe(0);

      // The first RS256 token fetches the key set; the next ones are looked up in KV under its key.
      for (const sub of ['r1', 'r2']) await tiers.verify(await token(k.rs, { sub }), ctx, { opened: undefined });
      expect(verifyKv.gets).toBeGreaterThan(0);
      await ctx.settle();
    },
  );
});
