// Every guard builds each issuer's verifier through the library's own options code
// (buildTwoStepVerifier over issuerSettings and its key, build.ts), as createVerifier does
// (edgejwt/hmac's policy maker for a config of HMAC secrets alone, as the guard picks it).
// A config the parser takes must never be one the library refuses: the guard's config
// errors are the parser's, named by setting. fast-check over configs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hmacPolicy } from '../../src/hmac/source.js';
import { buildPolicy } from '../../src/options.js';
import { hmacOnly } from '../../src/worker/stages/verify/uses.js';
import { buildTwoStepVerifier } from '../../src/verify-path.js';
import { parseConfig } from '../../src/worker/config.js';
import { issuerSettings } from '../../src/worker/issuer-settings.js';

const NAMES = [
  'https://a.example',
  'https://b.example',
  'urn:c',
  'https://d.example',
  'https://e.example',
  'https://f.example',
];
const AUDS = ['api', 'other', 'urn:x'];
const HS = ['HS256', 'HS384', 'HS512'];
const KEYED = ['EdDSA', 'Ed25519', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

/**
 * One issuer entry as a user writes it: HS with a secret or key-set algorithms with a JWKS URL, and every check an
 * entry may set.
 */
const entryArb = fc.record({
  hs: fc.boolean(),
  hsAlgs: fc.subarray(HS, { minLength: 1 }),
  keyAlgs: fc.array(fc.constantFrom(...KEYED), { minLength: 1, maxLength: 4 }),
  spellings: fc.integer({ min: 1, max: 2 }),
  audience: fc.option(fc.oneof(fc.constantFrom(...AUDS), fc.subarray(AUDS, { minLength: 1 })), { nil: undefined }),
  typ: fc.option(
    fc.constantFrom(
      'JWT',
      'jwt',
      'at+jwt',
      'AT+JWT',
      'application/at+jwt',
      'application/AT+JWT',
      'application/jwt',
      'example/jwt',
      'secevent+jwt',
    ),
    { nil: undefined },
  ),
  maxTokenAge: fc.option(fc.oneof(fc.constantFrom(1, 31_536_000), fc.integer({ min: 1, max: 31_536_000 })), {
    nil: undefined,
  }),
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
  return {
    issuers,
    origin: 'builtin:echo',
    cache: { jwks: false },
    ...(c.clockTolerance === undefined ? {} : { clockTolerance: c.clockTolerance }),
  };
}

describe("the guard's issuer policies (the library's options code)", () => {
  it(
    'every_parsed_config_builds_its_verifier: for every config the parser takes, buildTwoStepVerifier accepts ' +
      'issuerSettings of each entry',
    () => {
      let taken = 0;
      fc.assert(
        fc.property(configArb, (c) => {
          let config;
          try {
            config = parseConfig(rawConfig(c));
          } catch {
            return; // The guard refuses it (profile without audience, profile with typ JWT).
          }
          taken++;
          const secret = new Uint8Array(64).fill(7);
          const issuers = config.issuers.map((is) => ({
            ...issuerSettings(is),
            ...(is.source.kind === 'secret' ? { key: secret } : { jwks: { keys: [] } }),
          }));
          expect(() =>
            buildTwoStepVerifier(
              { issuers, clockTolerance: config.clockTolerance, cache: false },
              hmacOnly(config) ? hmacPolicy : buildPolicy,
            ),
          ).not.toThrow();
        }),
        { numRuns: 1000 },
      );
      expect(taken).toBeGreaterThan(300);
    },
  );
});
