// Identity forwarding that cannot be read as another identity (issue 22, item 4):
// a claim with a leading or trailing space is refused, not trimmed; lists are
// encoded injectively (src/worker/stages/forward/claim-header.ts), checked by fast-check.
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { claimHeaderValue } from '../../../../src/worker/stages/forward/claim-header.js';
import { baseConfig, bearer, demoKeys, makeGuard, token, type Keys, type Made } from '../../harness.js';

const RUNS = Math.min(Number(inject('propertyRuns')) || 200, 1000);
const SEED = Number(inject('propertySeed')) || 20261127;
const params = { numRuns: RUNS, seed: SEED };

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

const seen = async (res: Response): Promise<Record<string, string>> =>
  ((await res.json()) as { headers: Record<string, string> }).headers;

describe('identity forwarding is unambiguous', () => {
  let g: Made;
  beforeAll(async () => {
    g = await makeGuard(k, {
      config: baseConfig(k, { forwardClaims: { sub: 'X-Auth-Sub', groups: 'X-Auth-Groups' } }),
    });
  });

  it(
    'claim_whitespace_not_trimmed: "admin " is refused (claim_not_forwardable), never forwarded as ' + 'admin',
    async () => {
      for (const sub of ['admin ', ' admin', ' ']) {
        const before = g.net.calls.length;
        const res = await g.send('/x', bearer(await token(k.hs, { sub })));
        expect(res.status).toBe(401);
        expect(g.net.calls.length).toBe(before);
      }
      expect(g.guard.counters.get('rejected:claim_not_forwardable')).toBe(3);
      expect((await seen(await g.send('/x', bearer(await token(k.hs, { sub: 'admin' })))))['x-auth-sub']).toBe('admin');
    },
  );

  it(
    'claim_deep_json_not_server_fault: a claim nested too deep to serialise is claim_not_forwardable (401), ' +
      'not a 500',
    async () => {
      // An issuer that copies user-editable JSON (profile metadata) into tokens signs whatever a user nests.
      let deep: unknown = 'x';
      for (let i = 0; i < 20_000; i++) deep = [deep];
      expect(claimHeaderValue(deep)).toBeNull();
      let nested: unknown = 'x';
      for (let i = 0; i < 6000; i++) nested = [nested];
      const before = g.net.calls.length;
      const res = await g.send('/x', bearer(await token(k.hs, { sub: 'alice', groups: nested })));
      expect(res.status).toBe(401);
      expect(g.net.calls.length).toBe(before);
      expect(g.logs.some((l) => l.includes('"edgejwt":"error"'))).toBe(false);
    },
  );

  it(
    'claim_rounded_integer_refused: an integer beyond 2^53 (two issuer IDs parsed to one number) is refused, ' +
      'alone or inside JSON',
    async () => {
      // 12345678901234567891 and 12345678901234567890 are both the double 12345678901234567000.
      const big = JSON.parse('12345678901234567891') as number;
      expect(big).toBe(JSON.parse('12345678901234567890'));
      for (const v of [big, -big, 2 ** 53, [1, big], { id: big }, [[{ a: [big] }]]])
        expect(claimHeaderValue(v), JSON.stringify(v)).toBeNull();
      for (const [v, want] of [
        [2 ** 53 - 1, '9007199254740991'],
        [-(2 ** 53 - 1), '-9007199254740991'],
        [1.5, '1.5'],
        [0, '0'],
        [[1, 2], '[1,2]'],
        [{ id: 7 }, '{"id":7}'],
      ] as const) {
        expect(claimHeaderValue(v)).toBe(want);
      }
      const before = g.net.calls.length;
      const refused = g.guard.counters.get('rejected:claim_not_forwardable');
      const res = await g.send('/x', bearer(await token(k.hs, { sub: big })));
      expect(res.status).toBe(401);
      expect(g.net.calls.length).toBe(before);
      expect(g.guard.counters.get('rejected:claim_not_forwardable')).toBe(refused + 1);
      // A safe integer still travels.
      expect((await seen(await g.send('/x', bearer(await token(k.hs, { sub: 42 })))))['x-auth-sub']).toBe('42');
    },
  );

  it('claim_whitespace_not_trimmed: any string with a leading or trailing space is refused (property)', () => {
    const padded = fc
      .tuple(fc.string(), fc.constantFrom(' ', '  '), fc.boolean())
      .map(([s, pad, front]) => (front ? pad + s : s + pad));
    fc.assert(
      fc.property(padded, (s) => claimHeaderValue(s) === null),
      params,
    );
  });

  it('claim_array_encoding_injective: ["finance admins"] and ["finance","admins"] never arrive the same', async () => {
    const before = g.net.calls.length;
    expect((await g.send('/x', bearer(await token(k.hs, { groups: ['finance admins'] })))).status).toBe(401);
    expect(g.net.calls.length).toBe(before);
    expect(
      (await seen(await g.send('/x', bearer(await token(k.hs, { groups: ['finance', 'admins'] })))))['x-auth-groups'],
    ).toBe('finance admins');
  });

  it('claim_array_encoding_injective: two different lists never encode to the same header value (property)', () => {
    // Few characters, so near-collisions (spaces, empty strings, "[", JSON look-alikes) are common.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '[', ']', '"', ',', '1'), maxLength: 5 });
    const item = fc.oneof(
      { weight: 4, arbitrary: word },
      { weight: 1, arbitrary: fc.oneof(fc.integer({ min: -2, max: 12 }), fc.boolean(), fc.constant(null)) },
    );
    const list = fc.array(item, { maxLength: 4 });
    fc.assert(
      fc.property(list, list, (a, b) => {
        const ea = claimHeaderValue(a);
        const eb = claimHeaderValue(b);
        if (ea === null || eb === null || ea !== eb) return true;
        return JSON.stringify(a) === JSON.stringify(b);
      }),
      { ...params, numRuns: RUNS * 20 },
    );
    // The same with lists built to collide: one list and its words regrouped.
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), (a) => {
        const b = a.join(' ').split(' ');
        const ea = claimHeaderValue(a);
        return ea === null || ea !== claimHeaderValue(b) || JSON.stringify(a) === JSON.stringify(b);
      }),
      params,
    );
  });
});
