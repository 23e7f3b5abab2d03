// src/bearer/confirmation.ts: the one rule the guard's sender-constraint stage and the
// Hono middleware apply. A verified token passes only if every member of its `cnf`
// was proven for this request.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unprovenConfirmation } from '../../src/bearer/confirmation.js';

const JKT = '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I';
const X5T = 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2';

describe('unprovenConfirmation', () => {
  it('unproven_confirmation_rule: no cnf or an empty one passes; each member must match what was proven', () => {
    expect(unprovenConfirmation({ sub: 'a' }, {})).toBeUndefined();
    expect(unprovenConfirmation({ cnf: {} }, {})).toBeUndefined();
    expect(unprovenConfirmation({ cnf: { jkt: JKT } }, {})).toBe('cnf.jkt');
    expect(unprovenConfirmation({ cnf: { jkt: JKT } }, { jkt: JKT })).toBeUndefined();
    expect(unprovenConfirmation({ cnf: { jkt: JKT } }, { jkt: X5T })).toBe('cnf.jkt');
    expect(unprovenConfirmation({ cnf: { jkt: JKT } }, { x5t: JKT })).toBe('cnf.jkt');
    expect(unprovenConfirmation({ cnf: { 'x5t#S256': X5T } }, { x5t: X5T })).toBeUndefined();
    expect(unprovenConfirmation({ cnf: { 'x5t#S256': X5T } }, { jkt: X5T })).toBe('cnf.x5t#S256');
    expect(unprovenConfirmation({ cnf: { jkt: JKT, 'x5t#S256': X5T } }, { jkt: JKT })).toBe('cnf.x5t#S256');
    expect(unprovenConfirmation({ cnf: { jkt: JKT, 'x5t#S256': X5T } }, { jkt: JKT, x5t: X5T })).toBeUndefined();
    for (const cnf of ['x', null, [JKT], 1]) expect(unprovenConfirmation({ cnf }, { jkt: JKT })).toBe('cnf');
    expect(unprovenConfirmation({ cnf: { jwk: { kty: 'OKP' } } }, { jkt: JKT })).toBe('cnf.jwk');
    expect(unprovenConfirmation({ cnf: { jkt: { value: JKT } } }, { jkt: JKT })).toBe('cnf.jkt');
    // An inherited cnf (a prototype member) is no claim of the token.
    expect(unprovenConfirmation(Object.create({ cnf: { jkt: JKT } }) as Record<string, unknown>, {})).toBeUndefined();
  });

  it(
    'unproven_confirmation_property: any cnf object passes exactly when every own member is jkt or x5t#S256 ' +
      'equal to the proven value',
    () => {
      const member = fc.oneof(
        fc.constantFrom('jkt', 'x5t#S256', 'jwk', 'kid', 'x5t', 'jku'),
        fc.string({ maxLength: 8 }),
      );
      const value = fc.oneof(fc.constantFrom(JKT, X5T), fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null));
      const proven = fc.record({
        jkt: fc.option(fc.constantFrom(JKT, X5T), { nil: undefined }),
        x5t: fc.option(fc.constantFrom(JKT, X5T), { nil: undefined }),
      });
      fc.assert(
        fc.property(fc.dictionary(member, value, { maxKeys: 4 }), proven, (cnf, p) => {
          const ok = Object.entries(cnf).every(
            ([k, v]) =>
              (k === 'jkt' && typeof v === 'string' && v === p.jkt) ||
              (k === 'x5t#S256' && typeof v === 'string' && v === p.x5t),
          );
          expect(unprovenConfirmation({ cnf }, p) === undefined).toBe(ok);
        }),
      );
    },
  );
});
