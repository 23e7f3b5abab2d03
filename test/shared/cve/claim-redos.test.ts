// ReDoS in claim matching, fast-jwt CVE-2026-35041: allowedAud (and allowedIss, allowedSub,
// ...) took RegExp objects, so a pattern with nested quantifiers met an attacker's `aud`
// and backtracked for seconds. edgejwt takes no pattern: every claim setting is a string
// or a list of strings, matched by Set membership. The proofs are structural, never
// timed: RegExp settings are refused, pattern text is matched as text, and the matcher's
// lookups (counted) grow exactly with the number of `aud` entries, whatever they hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier } from '../../../src/index.js';
import { jwtAuth } from '../../../src/hono/index.js';
import { claims, codeOfSync, nowDate } from '../jwt-mint.js';
import { AUD, HS_ISS, hsGuard, liveClaims, macToken } from './cve-kit.js';

const secret = crypto.getRandomValues(new Uint8Array(32));
const EVIL = '^(a+)+X$'; // the advisory's shape: nested quantifiers
const attack = (n: number) => `${'a'.repeat(n)}!`;

/** Calls of Set.prototype.has while `fn` runs: the matcher's lookups. */
function lookups(fn: () => unknown): number {
  const has = Set.prototype.has;
  let n = 0;
  Set.prototype.has = function (this: Set<unknown>, v: unknown) {
    n++;
    return has.call(this, v);
  };
  try {
    fn();
  } finally {
    Set.prototype.has = has;
  }
  return n;
}

describe('CVE-2026-35041 fast-jwt: a RegExp claim matcher backtracked on an attacker-chosen aud', () => {
  it('claim_settings_take_no_regexp: issuer, audience, subject, typ and requiredClaims refuse RegExp values', () => {
    const base = { algorithms: ['HS256'] as const, key: secret };
    for (const setting of ['issuer', 'audience', 'subject', 'typ', 'requiredClaims']) {
      for (const value of [/^(a+)+X$/, [/^(a+)+X$/], ['api', /x/]]) {
        const options = { ...base, [setting]: value } as never;
        expect(
          codeOfSync(() => createVerifier(options)),
          setting,
        ).toBe('ERR_OPTIONS_INVALID');
        expect(
          codeOfSync(() => jwtAuth({ ...base, [setting]: value } as never)),
          setting,
        ).toBe('ERR_OPTIONS_INVALID');
      }
    }
    const entry = { issuer: /https:\/\/.*/, algorithms: ['HS256'], key: secret };
    expect(codeOfSync(() => createVerifier({ issuers: [entry] } as never))).toBe('ERR_OPTIONS_INVALID');
  });

  it('pattern_text_matched_as_text: audience "^(a+)+X$" accepts only that exact string (fast-check)', async () => {
    const v = createVerifier({ algorithms: ['HS256'], key: secret, audience: EVIL, currentDate: nowDate });
    expect(v.verifySync(await macToken(secret, {}, claims({ aud: EVIL }))).payload.aud).toBe(EVIL);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.nat({ max: 2000 }).map(attack), fc.constant('aaaX')), async (aud) => {
        fc.pre(aud !== EVIL);
        const t = await macToken(secret, {}, claims({ aud }));
        expect(codeOfSync(() => v.verifySync(t))).toBe('ERR_JWT_CLAIM_INVALID');
      }),
      { numRuns: 100 },
    );
  });

  it('matcher_lookups_linear: 4n hostile aud entries cost 3n lookups more than n; 4x longer: none', async () => {
    const audience = [EVIL, AUD];
    const v = createVerifier({ algorithms: ['HS256'], key: secret, audience, currentDate: nowDate, cache: false });
    const withAud = async (aud: unknown) => {
      const t = await macToken(secret, {}, claims({ aud }));
      return lookups(() => codeOfSync(() => v.verifySync(t)));
    };
    const n = 150;
    const few = await withAud(Array.from({ length: n }, (_, i) => attack(8 + (i % 3))));
    const many = await withAud(Array.from({ length: 4 * n }, (_, i) => attack(8 + (i % 3))));
    expect(many - few).toBe(3 * n);
    expect(await withAud(attack(4 * 2000))).toBe(await withAud(attack(2000)));
  });

  it('guard_rule_claims_matched_as_text: a rule claim "^(a+)+X$" passes only itself; attacks are 403', async () => {
    const g = await hsGuard(secret, { rules: [{ pathPrefix: '/admin/', claims: { tenant: EVIL } }] });
    const asTenant = (tenant: string) => macToken(secret, {}, liveClaims(HS_ISS, { tenant }));
    expect((await g.send(await asTenant(EVIL), '/admin/x')).status).toBe(200);
    for (const tenant of [attack(5000), 'aaaX', `${EVIL} `]) {
      expect((await g.send(await asTenant(tenant), '/admin/x')).status).toBe(403);
    }
  });
});
