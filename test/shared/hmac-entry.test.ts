// edgejwt/hmac (src/hmac/) against the main entry: the same verifier, so the same results
// and the same errors (code and message) for every HS vector, key shape and tampered token;
// and every option only the main entry takes is refused as ERR_OPTIONS_INVALID.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createVerifier as mainVerifier, type Algorithm, type JWK } from '../../src/index.js';
import { createVerifier as hmacVerifier } from '../../src/hmac/index.js';
import rfc7515 from '../vectors/jose/rfc7515_appendix_a.json';
import rfc7520 from '../vectors/jose/rfc7520_section4_jws.json';
import wycheproof from '../vectors/wycheproof/json_web_signature_test.json';
import { b64u, claims, generate, mint, nowDate } from './jwt-mint.js';

const HS: Algorithm[] = ['HS256', 'HS384', 'HS512'];

/** What a construction plus verifySync gives: the result as JSON, or the error's code, message and setting. */
function outcome(make: () => { verifySync(t: string): unknown }, token: string): string {
  try {
    return JSON.stringify({ ok: make().verifySync(token) });
  } catch (e) {
    const err = e as { code?: string; message?: string; setting?: string; claim?: string };
    if (typeof err.code !== 'string') throw e;
    return JSON.stringify({ code: err.code, message: err.message, setting: err.setting, claim: err.claim });
  }
}

/** Both entries over the same options and token must agree exactly. */
function same(options: Record<string, unknown>, token: string): string {
  const main = outcome(() => mainVerifier(options as never), token);
  expect(outcome(() => hmacVerifier(options as never), token)).toBe(main);
  return main;
}

interface Vector {
  id: string;
  alg: string;
  compact: string | null;
  jwk?: JWK;
}

describe('hmac_entry_matches_main_entry', () => {
  it('RFC 7515 A.1 and RFC 7520 §4.4 (HS256): same result before and after exp, raw and parsed', () => {
    const vs = [...(rfc7515.vectors as unknown as Vector[]), ...(rfc7520.vectors as unknown as Vector[])].filter((v) =>
      ['rfc7515-A.1', 'rfc7520-4.4'].includes(v.id),
    );
    expect(vs.map((v) => v.alg)).toEqual(['HS256', 'HS256']);
    for (const v of vs) {
      for (const currentDate of [new Date(1300819379 * 1000), new Date(1300819381 * 1000)]) {
        same({ algorithms: [v.alg], key: v.jwk, currentDate }, v.compact!);
        same({ algorithms: HS, key: v.jwk, currentDate, cache: false }, v.compact!);
      }
      expect(same({ algorithms: [v.alg], key: v.jwk, rawPayload: true }, v.compact!)).toContain('"ok"');
    }
  });

  it('every Wycheproof JWS case with an oct key: same verdict and error', () => {
    const groups = (
      wycheproof as unknown as { testGroups: { public?: JWK; private?: JWK; tests: { tcId: number; jws: string }[] }[] }
    ).testGroups;
    let n = 0;
    for (const g of groups) {
      const key = g.public ?? g.private!;
      if (key.kty !== 'oct') continue;
      for (const t of g.tests) {
        same({ algorithms: HS, key, rawPayload: true }, t.jws);
        n++;
      }
    }
    expect(n).toBeGreaterThan(10);
  });

  it('key shapes: short secrets, unusable and mismatched oct JWKs, strings fail the same way', async () => {
    const pair = await generate('HS256');
    const token = await mint(pair, claims());
    const k = pair.publicJwk.k as string;
    const cases: Record<string, unknown>[] = [
      { algorithms: ['HS256'], key: pair.secret!.subarray(0, 31) },
      { algorithms: ['HS256', 'HS512'], key: pair.secret },
      { algorithms: ['HS256'], key: { kty: 'oct', k, use: 'enc' } },
      { algorithms: ['HS256'], key: { kty: 'oct', k, key_ops: ['sign'] } },
      { algorithms: ['HS256'], key: { kty: 'oct', k, alg: 'HS384' } },
      { algorithms: ['HS256'], key: { kty: 'oct', k: `${k}!` } },
      { algorithms: ['HS256'], key: { kty: 'oct' } },
      { algorithms: ['HS256'], key: 'a-secret-as-text' },
      { algorithms: ['HS256'], key: 42 },
      { algorithms: [], key: pair.secret },
      { algorithms: ['HS256'], key: pair.secret, audience: 'other' },
      {
        algorithms: ['HS256'],
        key: pair.secret,
        issuer: 'https://issuer.example',
        audience: 'api',
        currentDate: nowDate,
      },
      {
        algorithms: ['HS256'],
        key: pair.secret,
        profile: 'at+jwt',
        issuer: 'https://issuer.example',
        audience: 'api',
        currentDate: nowDate,
      },
      { algorithms: ['HS256'], key: pair.secret, maxTokenLength: 8 },
      { algorithms: ['HS256'], key: pair.secret, audiense: 'api' },
    ];
    const seen = new Set<string>();
    for (const c of cases) seen.add(JSON.parse(same(c, token)).code ?? 'OK');
    // The table exercises successes and several distinct failures, not one code over and over.
    expect(seen.size).toBeGreaterThanOrEqual(6);
  });

  it('tampered tokens (fast-check): every verdict and error agrees', async () => {
    const pairs = await Promise.all(HS.map((a) => generate(a)));
    const tokens = await Promise.all(pairs.map((p) => mint(p, claims())));
    const alphabet = 'ABCDEFabcdef0123456789-_.=+/ {}"';
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 2 }),
        fc.nat(),
        fc.constantFrom(...alphabet),
        fc.boolean(),
        async (i, at, ch, cached) => {
          const t = tokens[i]!;
          const pos = at % t.length;
          const tampered = t.slice(0, pos) + ch + t.slice(pos + 1);
          const options = {
            algorithms: HS,
            key: pairs[i]!.secret,
            audience: 'api',
            currentDate: nowDate,
            cache: cached,
          };
          same(options, tampered);
          same(options, t);
        },
      ),
      { numRuns: 300 },
    );
  });

  it(
    'tokens whose alg the verifier refuses (fast-check): the same MALFORMED or ALG_NOT_ALLOWED, payload first, ' +
      'raw or parsed',
    async () => {
      // edgejwt/hmac checks such a token's segments without decoding it (jws-bytes.ts decodeAllowedOnly).
      const pair = await generate('HS256');
      const good = (await mint(pair, claims())).split('.');
      const segment = fc.oneof(
        fc.constantFrom(
          good[1]!,
          good[2]!,
          b64u('{"sub":"x"}'),
          b64u(new Uint8Array([0xff, 0xfe])),
          b64u('[1]'),
          '',
          'A',
          'AB',
          'ABC',
          'AB==',
          'AB+/',
          'AQ',
          'AR',
        ),
        fc.stringMatching(/^[A-Za-z0-9_\-+/=é.]{0,40}$/),
      );
      const alg = fc.constantFrom('HS256', 'HS384', 'HS512', 'RS256', 'ES256', 'EdDSA', 'none', 'XX');
      await fc.assert(
        fc.property(alg, segment, segment, fc.boolean(), fc.boolean(), (a, payload, signature, rawPayload, cache) => {
          const token = `${b64u(JSON.stringify({ alg: a }))}.${payload}.${signature}`;
          same({ algorithms: ['HS256', 'HS512'], key: pair.secret, currentDate: nowDate, rawPayload, cache }, token);
        }),
        { numRuns: 500 },
      );
    },
  );
});

describe('hmac_entry_refuses_non_hs_options', () => {
  it(
    'jwks, issuers, decryption, other algorithms, CryptoKeys and non-oct JWKs are ERR_OPTIONS_INVALID naming ' +
      'the setting',
    async () => {
      const pair = await generate('HS256');
      const ed = await generate('EdDSA');
      const refused: [string, Record<string, unknown>][] = [
        ['jwks', { algorithms: ['HS256'], jwks: { keys: [pair.publicJwk] } }],
        ['issuers', { issuers: [{ issuer: 'https://a.example', algorithms: ['HS256'], key: pair.secret }] }],
        ['decryption', { algorithms: ['HS256'], key: pair.secret, decryption: {} }],
        ['algorithms', { algorithms: ['HS256', 'RS256'], key: pair.secret }],
        ['algorithms', { algorithms: ['EdDSA'], key: ed.publicJwk }],
        ['key', { algorithms: ['HS256'], key: pair.publicKey }],
        ['key', { algorithms: ['HS256'], key: ed.publicJwk }],
      ];
      for (const [setting, options] of refused) {
        let err: { code?: string; setting?: string; message?: string } | undefined;
        try {
          hmacVerifier(options as never);
        } catch (e) {
          err = e as typeof err;
        }
        expect(err?.code, setting).toBe('ERR_OPTIONS_INVALID');
        expect(err?.setting, setting).toBe(setting);
        expect(err?.message, setting).toContain("'edgejwt'");
      }
      // The main entry takes the same key set.
      const token = await mint(pair, claims());
      expect(
        mainVerifier({
          algorithms: ['HS256'],
          jwks: { keys: [pair.publicJwk] },
          audience: 'api',
          currentDate: nowDate,
        }).verifySync(token).payload.sub,
      ).toBe('user-1');
    },
  );
});
