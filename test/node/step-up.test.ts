// RFC 9470 step-up (src/resource/step-up.ts): `acr` one of the rule's values, `auth_time` a finite
// number, not in the future (beyond the clock tolerance) and not older than maxAge.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkStepUp } from '../../src/resource/step-up.js';

const NOW = 1_800_000_000;

describe('step-up check', () => {
  it('step_up_passes_when_acr_and_auth_time_meet_the_rule', () => {
    const need = { acr: ['pwd', 'mfa'], maxAge: 300 };
    expect(checkStepUp({ acr: 'mfa', auth_time: NOW - 300 }, need, NOW)).toEqual({ ok: true });
    expect(checkStepUp({}, {}, NOW)).toEqual({ ok: true });
    expect(checkStepUp({ acr: 'x' }, { maxAge: undefined }, NOW)).toEqual({ ok: true });
  });

  it('step_up_missing_or_wrong_acr_gives_the_challenge', () => {
    const need = { acr: ['mfa'], maxAge: 600 };
    const challenge = { ok: false, acrValues: ['mfa'], maxAge: 600 };
    expect(checkStepUp({ auth_time: NOW }, need, NOW)).toEqual(challenge);
    expect(checkStepUp({ acr: 'pwd', auth_time: NOW }, need, NOW)).toEqual(challenge);
    expect(checkStepUp({ acr: ['mfa'], auth_time: NOW }, need, NOW)).toEqual(challenge);
    // An inherited name is never a claim.
    const inherited = Object.create({ acr: 'mfa', auth_time: NOW }) as Record<string, unknown>;
    expect(checkStepUp(inherited, need, NOW)).toEqual(challenge);
  });

  it('step_up_auth_time_must_be_finite_recent_and_not_in_the_future', () => {
    const need = { maxAge: 300 };
    const fail = { ok: false, acrValues: undefined, maxAge: 300 };
    expect(checkStepUp({}, need, NOW)).toEqual(fail);
    for (const auth_time of [String(NOW), null, true, Infinity, -Infinity, NaN, [NOW], { t: NOW }]) {
      expect(checkStepUp({ auth_time }, need, NOW)).toEqual(fail);
    }
    expect(checkStepUp({ auth_time: NOW - 301 }, need, NOW)).toEqual(fail);
    expect(checkStepUp({ auth_time: NOW + 1 }, need, NOW)).toEqual(fail);
    // The clock tolerance widens both ends by the same seconds, as for exp and nbf.
    expect(checkStepUp({ auth_time: NOW + 5 }, need, NOW, 5)).toEqual({ ok: true });
    expect(checkStepUp({ auth_time: NOW - 305 }, need, NOW, 5)).toEqual({ ok: true });
    expect(checkStepUp({ auth_time: NOW - 306 }, need, NOW, 5)).toEqual(fail);
  });

  it('step_up_property_passes_exactly_inside_the_window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 86_400 }),
        fc.integer({ min: -100_000, max: 100_000 }),
        fc.integer({ min: 0, max: 60 }),
        (maxAge, delta, tol) => {
          const ok = checkStepUp({ auth_time: NOW - delta }, { maxAge }, NOW, tol).ok;
          expect(ok).toBe(delta >= -tol && delta <= maxAge + tol);
        },
      ),
    );
  });
});
