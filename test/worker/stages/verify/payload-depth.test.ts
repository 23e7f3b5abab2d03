// A verified payload nested thousands of levels deep is refused right after the verify
// (401 invalid_token, logged ERR_JWT_PAYLOAD_INVALID), never a 500 from a JSON.stringify
// in forwardPayload, the KV verify-cache write or the origin assertion.
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MAX_PAYLOAD_DEPTH, nestedDeeperThan } from '../../../../src/worker/stages/verify/payload-depth.js';
import {
  CACHE_KEY,
  assertionKeyJson,
  baseConfig,
  bearer,
  demoKeys,
  freshJwksUrl,
  makeGuard,
  token,
  type Keys,
} from '../../harness.js';

const RUNS = Math.min(Number(inject('propertyRuns')) || 200, 1000);
const SEED = Number(inject('propertySeed')) || 20261127;

let k: Keys;
let privateJwk: string;
beforeAll(async () => {
  k = await demoKeys();
  privateJwk = await assertionKeyJson();
});

/** `levels` lists around 'x'. */
function nested(levels: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

/** Recursive reference depth (the payload itself is 1), for the property below. */
function depthOf(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 0;
  return 1 + Math.max(0, ...Object.values(v).map(depthOf));
}

describe('payload nesting bound', () => {
  it(
    'deep_payload_refused_not_server_fault: forwardPayload, the KV write and the origin assertion never see a ' +
      'payload nested thousands deep',
    async () => {
      const l2 = baseConfig(k, { cache: { verify: 'all', verifyAdmission: 'always' } });
      (l2.issuers as Record<string, unknown>[])[0]!.jwksUrl = freshJwksUrl();
      const configs: [string, Record<string, unknown>, Record<string, string>][] = [
        ['forwardPayload', baseConfig(k, { forwardPayload: 'X-Jwt-Payload' }), {}],
        ['KV verify-cache write', l2, { CACHE_KEY }],
        [
          'origin assertion',
          baseConfig(k, { originAssertion: { keyBinding: 'ASSERTION_KEY', alg: 'EdDSA', claims: ['sub', 'profile'] } }),
          { ASSERTION_KEY: privateJwk },
        ],
      ];
      // HS256: a short signature, so 6000 levels still fit in the default 16 KiB token.
      const deep = await token(k.hs, { sub: 'alice', profile: nested(6000) });
      // Every config's outcome first, so a failure shows all three.
      const seen: Record<
        string,
        { status: number; forwarded: number; faultLogged: boolean; code: boolean; ordinary: number }
      > = {};
      for (const [name, config, env] of configs) {
        const g = await makeGuard(k, { config, env });
        const res = await g.send('/x', bearer(deep));
        seen[name] = {
          status: res.status,
          forwarded: g.net.calls.filter((c) => c.url.startsWith('https://origin.example.com')).length,
          faultLogged: g.logs.some((l) => l.includes('"edgejwt":"error"')),
          code:
            (res.headers.get('www-authenticate') ?? '').includes('error="invalid_token"') &&
            g.logs.some((l) => l.includes('"edgejwt":"rejected","code":"ERR_JWT_PAYLOAD_INVALID"')),
          // An ordinary token through the same guard still passes.
          ordinary: (await g.send('/x', bearer(await token(k.hs, { sub: 'bob', profile: nested(3) })))).status,
        };
      }
      const want = { status: 401, forwarded: 0, faultLogged: false, code: true, ordinary: 200 };
      expect(seen).toEqual(Object.fromEntries(configs.map(([name]) => [name, want])));
    },
  );

  it('deep_payload_refused_not_server_fault: the bound is exact (payload level included)', async () => {
    const g = await makeGuard(k);
    // The payload object is level 1, so a claim may hold MAX - 1 levels of lists.
    expect((await g.send('/x', bearer(await token(k.hs, { deep: nested(MAX_PAYLOAD_DEPTH - 1) })))).status).toBe(200);
    expect((await g.send('/x', bearer(await token(k.hs, { deep: nested(MAX_PAYLOAD_DEPTH) })))).status).toBe(401);
    expect(nestedDeeperThan(nested(100_000), MAX_PAYLOAD_DEPTH)).toBe(true);
  });

  it('nestedDeeperThan agrees with a recursive depth on any JSON value (property)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 8 }),
        fc.integer({ min: 0, max: 9 }),
        (v, max) => nestedDeeperThan(v, max) === depthOf(v) > max,
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
