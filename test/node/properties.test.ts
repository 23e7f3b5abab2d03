// Properties (fast-check): any single-character change to a valid token is rejected
// with a JwtError; arbitrary input never throws anything but a JwtError.
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier, JwtError, type JWK } from '../../src/index.js';

const b64u = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const secret = Buffer.alloc(32, 11);
const ed = generateKeyPairSync('ed25519');

const mint = {
  HS256: (payload: object) => {
    const input = `${b64u(JSON.stringify({ alg: 'HS256' }))}.${b64u(JSON.stringify(payload))}`;
    return `${input}.${b64u(createHmac('sha256', secret).update(input).digest())}`;
  },
  EdDSA: (payload: object) => {
    const input = `${b64u(JSON.stringify({ alg: 'EdDSA' }))}.${b64u(JSON.stringify(payload))}`;
    return `${input}.${b64u(sign(null, Buffer.from(input), ed.privateKey))}`;
  },
};
const verifiers = {
  HS256: createVerifier({ algorithms: ['HS256'], key: new Uint8Array(secret), cache: false }),
  EdDSA: createVerifier({ algorithms: ['EdDSA'], key: ed.publicKey.export({ format: 'jwk' }) as JWK, cache: false }),
};

function outcome(alg: keyof typeof verifiers, token: string): string {
  try {
    verifiers[alg].verifySync(token);
    return 'OK';
  } catch (e) {
    if (!(e instanceof JwtError)) throw e;
    return e.code;
  }
}

const claims = fc
  .record({ sub: fc.string(), n: fc.integer(), s: fc.array(fc.string(), { maxLength: 3 }) })
  .map((c) => ({ ...c, exp: 4e9 }));
const ASCII = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));

describe('properties', () => {
  for (const alg of ['HS256', 'EdDSA'] as const) {
    it(`${alg}: a valid token verifies; changing any one character makes it fail with a JwtError`, () => {
      fc.assert(
        fc.property(
          claims,
          fc.nat(),
          fc.oneof(ASCII, fc.constantFrom('é', '\u0144', ' ', '\n', '=')),
          (payload, at, ch) => {
            const token = mint[alg](payload);
            expect(outcome(alg, token)).toBe('OK');
            const i = at % token.length;
            if (token[i] === ch) return;
            const changed = token.slice(0, i) + ch + token.slice(i + 1);
            expect(outcome(alg, changed)).not.toBe('OK');
          },
        ),
        { numRuns: 1500 },
      );
    });
  }
  it('arbitrary strings, and arbitrary three-segment strings, only ever fail with a JwtError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.tuple(fc.string(), fc.string(), fc.string()).map((p) => p.join('.')),
        ),
        (s) => {
          expect(outcome('HS256', s)).not.toBe('OK');
          expect(outcome('EdDSA', s)).not.toBe('OK');
        },
      ),
      { numRuns: 3000 },
    );
  });
  it('arbitrary JSON headers and payloads with a valid HMAC never crash the verifier', () => {
    fc.assert(
      fc.property(fc.json(), fc.json(), (h, p) => {
        const input = `${b64u(h)}.${b64u(p)}`;
        const token = `${input}.${b64u(createHmac('sha256', secret).update(input).digest())}`;
        outcome('HS256', token); // throws only if the error is not a JwtError
      }),
      { numRuns: 3000 },
    );
  });

  it(
    'typ_application_prefix_only_without_another_slash: a required typ matches the header exactly when both ' +
      'name one media type (RFC 7515 §4.1.9)',
    () => {
      const part = fc.oneof(
        fc.constantFrom('jwt', 'at+jwt', 'example', 'application'),
        fc.stringMatching(/^[a-zA-Z0-9+.-]{1,8}$/),
      );
      const prefix = fc.constantFrom('', 'application/', 'Application/');
      const spell = (p: string, a: string, b: string | undefined, upper: boolean) => {
        const t = `${p}${a}${b === undefined ? '' : `/${b}`}`;
        return upper ? t.toUpperCase() : t;
      };
      // Half the pairs are the same parts under other prefixes and case: the spellings that must (or must not) agree.
      const pair = fc
        .tuple(
          prefix,
          prefix,
          part,
          fc.option(part, { nil: undefined }),
          part,
          fc.option(part, { nil: undefined }),
          fc.boolean(),
          fc.boolean(),
        )
        .map(
          ([pw, ps, a, b, a2, b2, same, upper]) =>
            [spell(pw, a, b, false), same ? spell(ps, a, b, upper) : spell(ps, a2, b2, upper)] as const,
        );
      // The media type a typ value names: no `/` means `application/` is implied.
      const media = (t: string) => (t.includes('/') ? t.toLowerCase() : `application/${t.toLowerCase()}`);
      fc.assert(
        fc.property(pair, ([want, sent]) => {
          const input = `${b64u(JSON.stringify({ alg: 'HS256', typ: sent }))}.${b64u(JSON.stringify({ exp: 4e9 }))}`;
          const token = `${input}.${b64u(createHmac('sha256', secret).update(input).digest())}`;
          const v = createVerifier({ algorithms: ['HS256'], key: new Uint8Array(secret), cache: false, typ: want });
          let ok = true;
          try {
            v.verifySync(token);
          } catch (e) {
            expect((e as JwtError).code).toBe('ERR_JWT_CLAIM_INVALID');
            ok = false;
          }
          expect(ok).toBe(media(want) === media(sent));
        }),
        { numRuns: 300 },
      );
    },
  );
});
