// build.ts reads each binding where it builds the stage that uses it; bindings.ts
// (`edgejwt check-config`) lists them from the config description. This keeps the two
// in step: building a guard that uses every binding-naming setting reads exactly the
// bindings the list names (plus GUARD_CONFIG and the optional ANALYTICS).
import { beforeAll, describe, expect, it } from 'vitest';
import { requiredBindings } from '../../src/worker/bindings.js';
import type { GuardEnv } from '../../src/worker/build.js';
import { startGuard } from '../../src/worker/start.js';
import { defaultStages } from '../../src/worker/stages/index.js';
import { parseConfig } from '../../src/worker/config.js';
import { b64u } from '../shared/jwt-mint.js';
import { assertionKeyJson, baseConfig, CACHE_KEY, demoKeys, jwksOf, kv, mockNet, type Keys } from './harness.js';

let k: Keys;
let privateJwk: string;

beforeAll(async () => {
  k = await demoKeys();
  privateJwk = await assertionKeyJson();
});

describe('bindings: build.ts and the list check-config uses', () => {
  it('build_reads_exactly_the_listed_bindings', async () => {
    const config = baseConfig(k, {
      origin: { service: 'API' },
      admin: { path: '/__guard/counters', secretBinding: 'ADMIN_SECRET' },
      originAssertion: { keyBinding: 'ASSERTION_KEY' },
      cache: { verify: 'all', jwks: true },
      revocation: {
        path: '/__guard/revocations',
        secretBinding: 'REVOCATION_SECRET',
        store: { durableObject: 'REVOCATIONS' },
      },
    });
    const values: Record<string, unknown> = {
      GUARD_CONFIG: JSON.stringify(config),
      CACHE_KEY,
      HS_KEY: b64u(k.hs.secret!),
      ADMIN_SECRET: 'an-admin-secret-of-some-length',
      ASSERTION_KEY: privateJwk,
      API: { fetch: () => Promise.resolve(new Response('ok')) },
      VERIFY_CACHE: kv.VERIFY_CACHE,
      JWKS_CACHE: kv.JWKS_CACHE,
      REVOCATION_SECRET: 'a-revocation-secret-of-some-length',
      REVOCATIONS: {
        idFromName: () => 'id',
        get: () => ({ fetch: () => Promise.reject(new Error('not called while building')) }),
      },
    };
    const read = new Set<string>();
    const env = new Proxy(values, {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    }) as GuardEnv;
    await startGuard(env, { fetch: mockNet(jwksOf(k.ed, k.rs)).fetch, log: () => {} }, undefined, defaultStages);
    const needed = requiredBindings(parseConfig(config), config);
    const listed = new Set([
      ...needed.secrets.keys(),
      ...needed.kv.map((b) => b.binding),
      ...needed.services.map((b) => b.binding),
      ...needed.durableObjects.map((b) => b.binding),
    ]);
    read.delete('GUARD_CONFIG');
    read.delete('ANALYTICS');
    expect([...read].sort()).toEqual([...listed].sort());
  });
});
