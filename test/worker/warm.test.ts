// guard.warm(env): the guard built at module scope (src/worker/index.ts) from the
// importable env, adopted by a request whose env holds the same bindings, rebuilt in
// the request when building at module scope failed, and refusing every request when
// its known-answer self-test fails.
import { beforeAll, describe, expect, it } from 'vitest';
import { env as moduleEnv } from 'cloudflare:workers';
import worker from '../../src/worker/index.js';
import { createGuard, defaultStages, type GuardConfigInput } from '../../src/worker/api.js';
import { makeGuard } from '../../src/worker/start.js';
import { selfTest, SelfTestFailure } from '../../src/worker/self-test.js';
import { AUD, ISS, TestCtx, bearer, demoKeys, kv, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

const config = (): GuardConfigInput => ({
  issuers: [
    { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: { keys: [{ ...k.ed.publicJwk, kid: k.ed.kid }] } },
  ],
  origin: 'builtin:echo',
});
const bindings = (): Record<string, unknown> => ({
  VERIFY_CACHE: kv.VERIFY_CACHE,
  JWKS_CACHE: kv.JWKS_CACHE,
  API_AUDIENCE: AUD,
});
const req = (t?: string): Request => new Request('https://api.example.com/orders', t === undefined ? {} : bearer(t));

describe('guard.warm(env)', () => {
  it(
    'warm_guard_adopted_same_bindings: a request env holding the same bindings uses the warmed guard; other ' +
      'bindings build their own',
    async () => {
      let builds = 0;
      const guard = createGuard(
        () => {
          builds++;
          return config();
        },
        { stages: defaultStages },
      );
      const warmEnv = bindings();
      guard.warm(warmEnv);
      // Another object with the same bindings, as workerd hands a request its env.
      const res = await guard.fetch(req(await token(k.ed)), { ...warmEnv }, new TestCtx());
      expect(res.status).toBe(200);
      expect(builds).toBe(1);
      const other = { ...warmEnv, API_AUDIENCE: 'other' };
      expect((await guard.fetch(req(await token(k.ed)), other, new TestCtx())).status).toBe(200);
      expect(builds).toBe(2);
    },
  );

  it(
    'warm_failure_rebuilds_in_request: a build that ' + 'failed at module scope is built again by the request',
    async () => {
      let calls = 0;
      const guard = createGuard(
        () => {
          calls++;
          if (calls === 1) throw new Error('Disallowed operation called within global scope');
          return config();
        },
        { stages: defaultStages },
      );
      const warmEnv = bindings();
      guard.warm(warmEnv);
      const res = await guard.fetch(req(await token(k.ed)), { ...warmEnv }, new TestCtx());
      expect(res.status).toBe(200);
      expect(calls).toBe(2);
    },
  );

  it(
    'warm_config_error_same_as_request: a bad configuration ' + 'warmed is the same 500 as one built in the request',
    async () => {
      const lines: string[] = [];
      const guard = createGuard({ issuers: [] } as unknown as GuardConfigInput, {
        stages: defaultStages,
        log: (l) => void lines.push(l),
      });
      const warmEnv = bindings();
      guard.warm(warmEnv);
      const res = await guard.fetch(req(), { ...warmEnv }, new TestCtx());
      expect(res.status).toBe(500);
      expect(lines.some((l) => JSON.parse(l).setting === 'issuers')).toBe(true);
    },
  );

  it(
    'self_test_failure_fails_closed: a failed known-answer ' + 'check refuses every request, and is not rebuilt around',
    async () => {
      const lines: string[] = [];
      let builds = 0;
      const guard = makeGuard(
        () => {
          builds++;
          return config();
        },
        { stages: defaultStages, log: (l) => void lines.push(l) },
        () => Promise.reject(new SelfTestFailure('HS256')),
      );
      const warmEnv = bindings();
      guard.warm(warmEnv);
      const t = await token(k.ed);
      for (let i = 0; i < 2; i++) expect((await guard.fetch(req(t), { ...warmEnv }, new TestCtx())).status).toBe(500);
      const auth = await guard.authenticate(req(t), { ...warmEnv }, new TestCtx());
      expect(auth.ok).toBe(false);
      expect(builds).toBe(0);
      expect(lines.some((l) => JSON.parse(l).setting === 'self-test')).toBe(true);
    },
  );

  it(
    'self_test_runs_for_guard_built_in_request: a guard built by a request whose bindings were not warmed runs ' +
      'the check first, and a failed one fails closed',
    async () => {
      const lines: string[] = [];
      let builds = 0;
      let checks = 0;
      const guard = makeGuard(
        () => {
          builds++;
          return config();
        },
        { stages: defaultStages, log: (l) => void lines.push(l) },
        () => (checks++, Promise.reject(new SelfTestFailure('HS256'))),
      );
      const t = await token(k.ed);
      const env = bindings();
      for (let i = 0; i < 2; i++) expect((await guard.fetch(req(t), env, new TestCtx())).status).toBe(500);
      expect(builds).toBe(0);
      expect(checks).toBe(1);
      expect(lines.some((l) => JSON.parse(l).setting === 'self-test')).toBe(true);
    },
  );

  it('self_test_known_answer: the real self-test passes in workerd', async () => {
    await expect(selfTest()).resolves.toBeUndefined();
  });

  it('the guard Worker entry warms from the module-scope env and serves requests with it', async () => {
    // The test pool's env carries no GUARD_CONFIG: the warmed guard fails its config like the request's would.
    const res = await worker.fetch(req(), { ...(moduleEnv as Record<string, unknown>) }, new TestCtx());
    expect(res.status).toBe(500);
  });
});
