// Every guard builds each issuer's policy data straight from its checked config entry
// (src/worker/issuer-settings.ts issuerPolicy), with no option code. That is sound only if,
// for every config the parser takes, it is exactly what the library's option code
// (options.ts policyData over issuerSettings, createVerifier's `issuers` defaults) makes:
// fast-check over configs, deep strict equality (Sets, undefined members, order). And
// `edgejwt check-config` / `build-guard` refuse a config for which the two differ
// (src/cli/policy-agreement.ts): checked here with the library's side swapped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { algSpec } from '../../src/algorithms.js';
import { assertPoliciesAgree } from '../../src/cli/policy-agreement.js';
import { policyData, type PolicyData } from '../../src/options.js';
import { parseConfig } from '../../src/worker/config.js';
import { issuerPolicy, issuerSettings } from '../../src/worker/issuer-settings.js';

const NAMES = ['https://a.example', 'https://b.example', 'urn:c', 'https://d.example', 'https://e.example', 'https://f.example'];
const AUDS = ['api', 'other', 'urn:x'];
const HS = ['HS256', 'HS384', 'HS512'];
const KEYED = ['EdDSA', 'Ed25519', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

/** One issuer entry as a user writes it: HS with a secret or key-set algorithms with a JWKS URL, and every check an entry may set. */
const entryArb = fc.record({
  hs: fc.boolean(),
  hsAlgs: fc.subarray(HS, { minLength: 1 }),
  keyAlgs: fc.array(fc.constantFrom(...KEYED), { minLength: 1, maxLength: 4 }),
  spellings: fc.integer({ min: 1, max: 2 }),
  audience: fc.option(fc.oneof(fc.constantFrom(...AUDS), fc.subarray(AUDS, { minLength: 1 })), { nil: undefined }),
  typ: fc.option(fc.constantFrom('JWT', 'jwt', 'at+jwt', 'AT+JWT', 'application/at+jwt', 'application/AT+JWT', 'application/jwt', 'example/jwt', 'secevent+jwt'), { nil: undefined }),
  maxTokenAge: fc.option(fc.oneof(fc.constantFrom(1, 31_536_000), fc.integer({ min: 1, max: 31_536_000 })), { nil: undefined }),
  profile: fc.boolean(),
});

const configArb = fc.record({
  entries: fc.array(entryArb, { minLength: 1, maxLength: 3 }),
  clockTolerance: fc.option(fc.integer({ min: 0, max: 600 }), { nil: undefined }),
});

function rawConfig(c: typeof configArb extends fc.Arbitrary<infer T> ? T : never): Record<string, unknown> {
  let name = 0;
  const issuers = c.entries.map((e, i) => {
    const issuer = NAMES.slice(name, name + e.spellings);
    name += e.spellings;
    return {
      issuer: issuer.length === 1 ? issuer[0] : issuer,
      ...(e.audience === undefined ? { claims: { tenant: 'acme' } } : { audience: e.audience }),
      algorithms: e.hs ? e.hsAlgs : e.keyAlgs,
      ...(e.hs ? { secretBinding: `KEY_${i}` } : { jwksUrl: `https://keys.example/${i}` }),
      ...(e.typ === undefined ? {} : { typ: e.typ }),
      ...(e.maxTokenAge === undefined ? {} : { maxTokenAge: e.maxTokenAge }),
      ...(e.profile ? { profile: 'at+jwt' } : {}),
    };
  });
  return { issuers, origin: 'builtin:echo', cache: { jwks: false }, ...(c.clockTolerance === undefined ? {} : { clockTolerance: c.clockTolerance }) };
}

describe("the guard's policy derivation (issuer-settings.ts issuerPolicy)", () => {
  it('derived_policy_matches_library_policy: for every config the parser takes, issuerPolicy deep-equals policyData(issuerSettings(is), { clockTolerance }, algSpec)', () => {
    let taken = 0;
    fc.assert(
      fc.property(configArb, (c) => {
        let config;
        try {
          config = parseConfig(rawConfig(c));
        } catch {
          return; // The guard refuses it (profile without audience, profile with typ JWT): nothing is derived.
        }
        taken++;
        for (const is of config.issuers) {
          // The library's checks never refuse what the parser took: the guard's config errors are the parser's.
          const library = policyData(issuerSettings(is), { clockTolerance: config.clockTolerance }, algSpec);
          expect(issuerPolicy(is, config.clockTolerance)).toStrictEqual(library);
        }
        expect(() => assertPoliciesAgree(config)).not.toThrow();
      }),
      { numRuns: 1000 },
    );
    expect(taken).toBeGreaterThan(300);
  });

  it('policies_disagreeing_refuse_the_config: a library whose policy differs from the derivation in any one member makes assertPoliciesAgree throw, naming the issuer', () => {
    const config = parseConfig({ issuers: [{ issuer: NAMES[0], audience: 'api', algorithms: ['HS256'], secretBinding: 'K0' }, { issuer: NAMES[1], audience: 'api', algorithms: ['ES256'], jwksUrl: 'https://keys.example/1', maxTokenAge: 60 }], clockTolerance: 5 });
    const changes: ((p: PolicyData) => PolicyData)[] = [
      (p) => ({ ...p, algorithms: [...p.algorithms, 'ES384'] }),
      (p) => ({ ...p, claims: { ...p.claims, requireExp: false } }),
      (p) => ({ ...p, claims: { ...p.claims, maxTokenAge: undefined } }),
      (p) => ({ ...p, claims: { ...p.claims, clockTolerance: 6 } }),
      (p) => ({ ...p, claims: { ...p.claims, audience: new Set(['api', 'other']) } }),
      (p) => ({ ...p, claims: { ...p.claims, requiredClaims: ['scope'] } }),
      // A member the library would add, unknown to the derivation.
      (p) => ({ ...p, claims: { ...p.claims, notBefore: 0 } as PolicyData['claims'] }),
    ];
    for (const [n, change] of changes.entries()) {
      const library = (cfg: typeof config): PolicyData[] => cfg.issuers.map((is, i) => {
        const data = policyData(issuerSettings(is), { clockTolerance: cfg.clockTolerance }, algSpec);
        return i === 1 ? change(data) : data;
      });
      expect(() => assertPoliciesAgree(config, library), `change ${n}`).toThrow(/issuers\[1\]: the guard would check/);
    }
  });
});
