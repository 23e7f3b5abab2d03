// The compiled guard's GUARD_CONFIG drift check (src/worker/compiled.ts) accepts the text the
// entry was built from as it stands, and anything else only when configSource gives that text.
// The fast path is sound only if configSource is idempotent on its own output: a text equal to
// `source` would give `source` again. Key order changes, added or dropped members and changed
// values are refused either way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { configSource } from '../../src/worker/config-source.js';

describe('guard_config_fast_path_matches_json_compare', () => {
  it('configSource of a compiled source is that source (any JSON value, unicode and __proto__ keys included)', () => {
    const key = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('__proto__', 'constructor', '0', '1', '10'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ unit: 'binary' }), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 4 })),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        const source = configSource(v)!;
        expect(configSource(source)).toBe(source);
      }),
      { numRuns: 500 },
    );
  });

  it('a reordered, widened or duplicated-member config is refused; whitespace and escapes are not changes', () => {
    const source = configSource({ issuers: [{ issuer: 'a', audience: 'api' }], origin: 'builtin:echo' })!;
    expect(configSource('{ "issuers" : [ { "issuer" : "\\u0061", "audience" : "api" } ] ,\n "origin": "builtin:echo" }')).toBe(source);
    // A duplicate member reads as its last value (JSON.parse, as Wrangler and the default guard read it): the same config.
    expect(configSource('{"issuers":[{"issuer":"a","audience":"api"}],"origin":"https://evil.example","origin":"builtin:echo"}')).toBe(source);
    for (const changed of ['{"origin":"builtin:echo","issuers":[{"issuer":"a","audience":"api"}]}', '{"issuers":[{"issuer":"a","audience":["api","x"]}],"origin":"builtin:echo"}', '{"issuers":[{"issuer":"a","audience":"api"}],"origin":"builtin:echo","origin":"https://evil.example"}']) {
      expect(configSource(changed)).not.toBe(source);
    }
  });
});
