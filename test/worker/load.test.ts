// A bounded load run through the Worker entry: thousands of requests, half with
// bad tokens of every kind. Zero bad tokens accepted, zero 5xx, and what the
// isolate keeps (L1, counters, pending KV writes) stays bounded.
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/worker/index.js';
import { startGuard } from '../../src/worker/start.js';
import { defaultStages } from '../../src/worker/stages/index.js';
import { b64u, generate } from '../shared/jwt-mint.js';
import { AUD, CACHE_KEY, HS_ISS, ISS, TestCtx, demoKeys, jwksOf, kv, nowSeconds, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

const TOTAL = 4000;
const CONCURRENCY = 50;
const L1_MAX = 128;

function config(): Record<string, unknown> {
  return {
    issuers: [
      { issuer: ISS, audience: AUD, algorithms: ['EdDSA', 'RS256'], jwks: jwksOf(k.ed, k.rs) },
      { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' },
    ],
    rules: [{ pathPrefix: '/admin/', scopes: ['admin'] }],
    forwardClaims: { sub: 'X-Auth-Sub' },
    origin: 'builtin:echo',
    cache: { verify: ['RS256'], l1Max: L1_MAX },
  };
}

describe('load: half bad tokens', () => {
  it(`${TOTAL} requests through the entry: no bad token accepted, no 5xx, bounded state`, async () => {
    const env = {
      GUARD_CONFIG: config(),
      HS_KEY: b64u(k.hs.secret!),
      CACHE_KEY,
      VERIFY_CACHE: kv.VERIFY_CACHE,
      JWKS_CACHE: kv.JWKS_CACHE,
    };
    // A pool of good tokens (repeat users: L1 and L2 at work) plus fresh ones (cache churn past l1Max).
    const pool: string[] = [];
    for (let i = 0; i < 300; i++) pool.push(await token([k.ed, k.rs, k.hs][i % 3]!, { sub: `user-${i}` }));
    // Keys nobody configured, generated once (an RSA key generation per token would dominate the run).
    const stranger = { ...(await generate('EdDSA')), kid: 'ed-1' };
    const strangerRs = { ...(await generate('RS256')), kid: 'rs-1' };
    const strangerHs = await generate('HS256');
    const t = nowSeconds();
    const badMakers: (() => Promise<string>)[] = [
      () => token(stranger, { sub: 'mallory' }),
      () => token(strangerRs, { sub: 'mallory' }),
      () => token(strangerHs, { sub: 'mallory' }),
      () => token(k.ed, { exp: t - 120 }),
      () => token(k.ed, { aud: 'another-api' }),
      () => token(k.rs, { iss: 'https://evil.example' }),
      () => token({ ...stranger, kid: 'no-such-kid' }),
      async () => `${pool[0]!.split('.').slice(0, 2).join('.')}.${'A'.repeat(86)}`,
      async () => `eyJhbGciOiJub25lIn0.${b64u(JSON.stringify({ iss: ISS, aud: AUD, sub: 'root', exp: t + 999 }))}.`,
      async () => 'x'.repeat(20_000),
      async () =>
        pool[1]!.replace(/\.[^.]+\./, `.${b64u(JSON.stringify({ iss: ISS, aud: AUD, sub: 'root', exp: t + 999 }))}.`),
    ];

    type Job = { good: boolean; init: RequestInit; path: string };
    const jobs: Job[] = [];
    for (let i = 0; i < TOTAL; i++) {
      if (i % 2 === 0) {
        const tok = i % 10 === 0 ? await token(k.ed, { sub: `fresh-${i}` }) : pool[i % pool.length]!;
        jobs.push({
          good: true,
          path: '/api/item',
          init: { headers: { authorization: `Bearer ${tok}`, 'x-auth-sub': 'spoof' } },
        });
      } else {
        const tok = await badMakers[i % badMakers.length]!();
        jobs.push({
          good: false,
          path: '/api/item',
          init: { headers: { authorization: `Bearer ${tok}`, 'x-auth-sub': 'root' } },
        });
      }
    }

    const statuses = new Map<number, number>();
    let badAccepted = 0;
    let goodRefused = 0;
    let spoofLeaked = 0;
    for (let i = 0; i < jobs.length; i += CONCURRENCY) {
      await Promise.all(
        jobs.slice(i, i + CONCURRENCY).map(async (job) => {
          const ctx = new TestCtx();
          const res = await worker.fetch(new Request(`https://api.example.com${job.path}`, job.init), env, ctx);
          await ctx.settle();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 200) {
            const seen = ((await res.json()) as { headers: Record<string, string> }).headers['x-auth-sub'];
            if (!job.good) badAccepted++;
            if (seen === 'spoof' || seen === 'root') spoofLeaked++;
          } else {
            await res.arrayBuffer();
            if (job.good) goodRefused++;
          }
        }),
      );
    }
    expect(badAccepted).toBe(0);
    expect(goodRefused).toBe(0);
    expect(spoofLeaked).toBe(0);
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([]);
    expect(statuses.get(200)).toBe(TOTAL / 2);
    expect(statuses.get(401)).toBe(TOTAL / 2);

    // Bounded state: the guard for this env, observed through a twin built the same way,
    // and the counters' key set (fixed names, never request data).
    const twin = await startGuard(env, { log: () => undefined }, undefined, defaultStages);
    for (const job of jobs.slice(0, 1000))
      await twin.handle(new Request(`https://api.example.com${job.path}`, job.init), new TestCtx());
    expect(twin.l1Size).toBeLessThanOrEqual(L1_MAX);
    expect(Object.keys(twin.counters.snapshot()).length).toBeLessThan(30);
    expect(twin.parts.jwksStore?.drain()).toBeUndefined();
    expect(twin.counters.get('accepted')).toBe(500);
  });
});
