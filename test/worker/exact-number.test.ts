// Integers beyond ±2^53 are rounded by JSON parsing, so a rule or issuer `claims` value
// written as one cannot tell two IDs apart: such config values are refused, and a
// rounded number on either side never matches (src/worker/exact-number.ts).
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/worker/config.js';
import { roundedInteger } from '../../src/worker/exact-number.js';
import { claimHolds } from '../../src/worker/stages/route/rules.js';
import { baseConfig, bearer, demoKeys, makeGuard, token, type Keys } from './harness.js';

const RUNS = Math.min(Number(inject('propertyRuns')) || 200, 1000);
const SEED = Number(inject('propertySeed')) || 20261127;

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

/** GUARD_CONFIG text with `value` written into it as the operator typed it (digits intact). */
function configText(where: 'rule' | 'issuer', value: string): string {
  const c = baseConfig(k);
  if (where === 'rule') c.rules = [{ pathPrefix: '/t/', claims: { tenant: '@V@' } }];
  else (c.issuers as Record<string, unknown>[])[1]!.claims = { tenant: '@V@' };
  return JSON.stringify(c).replace('"@V@"', value);
}

describe('rounded integers in claim comparisons', () => {
  it(
    'rule_claims_unsafe_integer_never_matches: a rule or issuer claims value beyond ±2^53 is a config error ' +
      'naming the setting',
    () => {
      for (const [where, setting] of [
        ['rule', 'rules[0].claims.tenant'],
        ['issuer', 'issuers[1].claims.tenant'],
      ] as const) {
        for (const v of [
          '12345678901234567891',
          '-12345678901234567891',
          '9007199254740992',
          '1e20',
          '[1, 12345678901234567891]',
        ]) {
          let err: unknown;
          try {
            parseConfig(configText(where, v));
          } catch (e) {
            err = e;
          }
          expect(err, `${where} ${v}`).toBeInstanceOf(ConfigError);
          expect((err as ConfigError).setting).toBe(setting);
          expect((err as Error).message).toMatch(/as a string/);
        }
        // Safe integers, fractions and strings of any length stay accepted.
        for (const v of [
          '9007199254740991',
          '-9007199254740991',
          '1.5',
          '"12345678901234567891"',
          '[1, "12345678901234567891"]',
        ]) {
          expect(() => parseConfig(configText(where, v)), `${where} ${v}`).not.toThrow();
        }
      }
    },
  );

  it(
    'rule_claims_unsafe_integer_never_matches: a rounded number never matches, whatever it rounded from ' +
      '(property)',
    () => {
      // Two IDs an issuer or operator wrote differently that parse to the same double.
      const a = JSON.parse('12345678901234567891') as number;
      const b = JSON.parse('12345678901234567890') as number;
      expect(a).toBe(b);
      expect(claimHolds(a, b)).toBe(false);
      expect(claimHolds([7, a], [b])).toBe(false);
      const rounded = fc.oneof(
        fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }).map((n) => Number(n)),
        fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }).map((n) => -Number(n)),
      );
      const safe = fc.oneof(fc.maxSafeInteger(), fc.string(), fc.boolean());
      fc.assert(
        fc.property(rounded, fc.array(safe, { maxLength: 3 }), fc.boolean(), (n, others, asList) => {
          expect(roundedInteger(n)).toBe(true);
          // The rounded number on both sides, alone or in lists: never a match.
          expect(claimHolds(asList ? [...others, n] : n, n)).toBe(false);
          expect(claimHolds(n, [...others, n] as (string | number | boolean)[])).toBe(false);
          // Safe values still match exactly.
          for (const s of others) expect(claimHolds(asList ? [n, s] : s, s)).toBe(true);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
  );

  it(
    'rule_claims_unsafe_integer_never_matches: the guard will not start on such a value, and a safe number ' +
      'still matches',
    async () => {
      await expect(
        makeGuard(k, { config: undefined, env: { GUARD_CONFIG: configText('rule', '12345678901234567891') } }),
      ).rejects.toThrow(/rules\[0\]\.claims\.tenant/);
      const g = await makeGuard(k, {
        config: baseConfig(k, { rules: [{ pathPrefix: '/t/', claims: { tenant: 9007199254740991 } }] }),
      });
      expect((await g.send('/t/x', bearer(await token(k.hs, { tenant: 9007199254740991 })))).status).toBe(200);
      // 2^53 + 1 is read as 2^53: it must not pass as the neighbouring safe value either.
      expect((await g.send('/t/x', bearer(await token(k.hs, { tenant: 2 ** 53 })))).status).toBe(403);
    },
  );
});
