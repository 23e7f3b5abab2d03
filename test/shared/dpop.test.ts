// src/dpop/: DPoP proof verification (RFC 9449 §4.3) on the RFC's own example proofs,
// adversarial proofs (each refused with its own ERR_DPOP_* code), proofs made by
// jose for ES256, EdDSA, RS256 and PS256, the cnf.jkt binding, and fast-check
// properties of the htu comparison.
import fc from 'fast-check';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import {
  checkDpopBinding,
  dpopAccessTokenHash,
  dpopReplayKey,
  htuForm,
  isJwtError,
  jwkThumbprint,
  verifyDpopProof,
  type DpopAlgorithm,
  type DpopProofOptions,
} from '../../src/index.js';
import vectors from '../vectors/key-binding/rfc9449_dpop.json';
import { b64u, codeOf, codeOfSync, generate, mint, NOW, nowDate, type KeyPair } from './jwt-mint.js';

const [tokenRequest, resourceRequest] = vectors.proofs as [(typeof vectors.proofs)[0], (typeof vectors.proofs)[0]];
const at = (iat: number, shift = 0) => new Date((iat + shift) * 1000);
const rfcOptions = (extra: Partial<DpopProofOptions> = {}): DpopProofOptions => ({
  method: tokenRequest.method,
  url: tokenRequest.url,
  algorithms: ['ES256'],
  currentDate: at(tokenRequest.iat),
  ...extra,
});

const URL_ = 'https://api.example.com/v1/things';
const ACCESS_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln';

interface MintOptions {
  header?: Record<string, unknown>;
  payload?: Record<string, unknown>;
  /** Sign with this pair instead of the one whose key the header carries. */
  signer?: KeyPair;
}

/** A DPoP proof for GET URL_ at NOW with ACCESS_TOKEN's ath, changed by `o`. */
async function proofFor(pair: KeyPair, o: MintOptions = {}): Promise<string> {
  const payload = {
    jti: 'jti-1',
    htm: 'GET',
    htu: URL_,
    iat: NOW,
    ath: dpopAccessTokenHash(ACCESS_TOKEN),
    ...o.payload,
  };
  for (const [k, v] of Object.entries(payload)) if (v === undefined) delete (payload as Record<string, unknown>)[k];
  return mint(o.signer ?? pair, payload, { typ: 'dpop+jwt', jwk: pair.publicJwk, ...o.header });
}

const options = (extra: Partial<DpopProofOptions> = {}): DpopProofOptions => ({
  method: 'GET',
  url: URL_,
  algorithms: ['ES256', 'ES384', 'ES512', 'EdDSA', 'RS256', 'PS256'],
  accessToken: ACCESS_TOKEN,
  currentDate: nowDate,
  ...extra,
});

describe('DPoP: the RFC 9449 example proofs', () => {
  it('accepts the §4.1 token-request proof at its iat, with the §6.1 jkt and a replay key of jkt and jti', async () => {
    const p = await verifyDpopProof(tokenRequest.proof, rfcOptions());
    expect(p.jkt).toBe(vectors.jkt);
    expect(p.jti).toBe(tokenRequest.jti);
    expect(p.iat).toBe(tokenRequest.iat);
    expect(p.htm).toBe('POST');
    expect(p.alg).toBe('ES256');
    expect(p.replayKey).toBe(dpopReplayKey(vectors.jkt, tokenRequest.jti));
    expect(p.replayKey).not.toBe(dpopReplayKey(vectors.jkt, 'another-jti'));
    expect(Object.isFrozen(p)).toBe(true);
  });

  it(
    'accepts the §7.1 resource proof with its access token, ' + 'and refuses it with another (ERR_DPOP_ATH_MISMATCH)',
    async () => {
      const o = {
        method: 'GET',
        url: resourceRequest.url,
        algorithms: ['ES256'] as DpopAlgorithm[],
        currentDate: at(resourceRequest.iat),
      };
      expect(dpopAccessTokenHash(vectors.accessToken)).toBe(vectors.ath);
      expect((await verifyDpopProof(resourceRequest.proof, { ...o, accessToken: vectors.accessToken })).jkt).toBe(
        vectors.jkt,
      );
      expect(
        await codeOf(() => verifyDpopProof(resourceRequest.proof, { ...o, accessToken: `${vectors.accessToken}x` })),
      ).toBe('ERR_DPOP_ATH_MISMATCH');
      // The §4.1 proof has no ath: with an access token it is refused.
      expect(
        await codeOf(() => verifyDpopProof(tokenRequest.proof, rfcOptions({ accessToken: vectors.accessToken }))),
      ).toBe('ERR_DPOP_ATH_MISMATCH');
    },
  );

  it('refuses the §4.1 proof for another method or URL', async () => {
    expect(await codeOf(() => verifyDpopProof(tokenRequest.proof, rfcOptions({ method: 'GET' })))).toBe(
      'ERR_DPOP_HTM_MISMATCH',
    );
    expect(await codeOf(() => verifyDpopProof(tokenRequest.proof, rfcOptions({ method: 'post' })))).toBe(
      'ERR_DPOP_HTM_MISMATCH',
    );
    for (const url of [
      'https://server.example.com/token2',
      'https://server.example.com/Token',
      'http://server.example.com/token',
      'https://server.example.com:8443/token',
      'https://evil.example.com/token',
      'https://server.example.com/token/',
    ]) {
      expect(await codeOf(() => verifyDpopProof(tokenRequest.proof, rfcOptions({ url }))), url).toBe(
        'ERR_DPOP_HTU_MISMATCH',
      );
    }
  });

  it('ignores the request URL query and fragment, scheme and host case, and the default port', async () => {
    for (const url of [
      'https://server.example.com/token?code=1&x=2',
      'https://server.example.com/token#frag',
      'HTTPS://Server.Example.COM:443/token',
      new URL('https://server.example.com/token?a'),
    ]) {
      expect((await verifyDpopProof(tokenRequest.proof, rfcOptions({ url }))).jkt, String(url)).toBe(vectors.jkt);
    }
  });

  it('holds iat to [now - maxAge - clockTolerance, now + clockTolerance]', async () => {
    const iat = tokenRequest.iat;
    const code = (currentDate: Date, extra: Partial<DpopProofOptions> = {}) =>
      codeOf(() => verifyDpopProof(tokenRequest.proof, rfcOptions({ currentDate, ...extra })));
    expect(await code(at(iat, 65))).toBe('OK'); // default maxAge 60 + tolerance 5
    expect(await code(at(iat, 66))).toBe('ERR_DPOP_IAT_INVALID');
    expect(await code(at(iat, -5))).toBe('OK');
    expect(await code(at(iat, -6))).toBe('ERR_DPOP_IAT_INVALID');
    expect(await code(at(iat, 10), { maxAge: 5, clockTolerance: 0 })).toBe('ERR_DPOP_IAT_INVALID');
    expect(await code(at(iat, 5), { maxAge: 5, clockTolerance: 0 })).toBe('OK');
    expect(await code(new Date())).toBe('ERR_DPOP_IAT_INVALID'); // a 2019 proof today
  });

  it('refuses the §4.1 proof with a changed signature, header or payload', async () => {
    const [h, p, s] = tokenRequest.proof.split('.') as [string, string, string];
    const flipped = s.slice(0, 10) + (s[10] === 'A' ? 'B' : 'A') + s.slice(11);
    expect(await codeOf(() => verifyDpopProof(`${h}.${p}.${flipped}`, rfcOptions()))).toBe(
      'ERR_DPOP_SIGNATURE_INVALID',
    );
    const otherPayload = b64u(
      JSON.stringify({ jti: tokenRequest.jti, htm: 'POST', htu: tokenRequest.url, iat: tokenRequest.iat + 1 }),
    );
    expect(await codeOf(() => verifyDpopProof(`${h}.${otherPayload}.${s}`, rfcOptions()))).toBe(
      'ERR_DPOP_SIGNATURE_INVALID',
    );
  });
});

describe('DPoP: adversarial proofs', () => {
  it('dpop_private_jwk_refused: a jwk with any private or symmetric member (ERR_DPOP_JWK_INVALID)', async () => {
    const pair = await generate('ES256');
    const full = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as Record<string, unknown>;
    const withD = await proofFor(pair, {
      header: { jwk: { kty: full.kty, crv: full.crv, x: full.x, y: full.y, d: full.d } },
    });
    expect(await codeOf(() => verifyDpopProof(withD, options()))).toBe('ERR_DPOP_JWK_INVALID');
    for (const m of ['p', 'q', 'dp', 'dq', 'qi', 'oth', 'k']) {
      const proof = await proofFor(pair, { header: { jwk: { ...pair.publicJwk, [m]: 'AQAB' } } });
      expect(await codeOf(() => verifyDpopProof(proof, options())), m).toBe('ERR_DPOP_JWK_INVALID');
    }
    const rsa = await generate('RS256');
    const rsaFull = (await crypto.subtle.exportKey('jwk', rsa.privateKey)) as Record<string, unknown>;
    const { key_ops: _o, ext: _e, alg: _a, ...rsaPrivate } = rsaFull;
    const rsaProof = await proofFor(rsa, { header: { jwk: rsaPrivate } });
    expect(await codeOf(() => verifyDpopProof(rsaProof, options()))).toBe('ERR_DPOP_JWK_INVALID');
    // The same proofs without the private members verify: it is the member that is refused.
    expect((await verifyDpopProof(await proofFor(pair), options())).jkt).toBe(jwkThumbprint(pair.publicJwk));
  });

  it('dpop_symmetric_alg_refused: HS256 is never a proof algorithm, and none is not one at all', async () => {
    const hs = await generate('HS256');
    const proof = await mint(
      hs,
      { jti: 'j', htm: 'GET', htu: URL_, iat: NOW },
      { typ: 'dpop+jwt', jwk: { kty: 'oct', k: b64u(hs.secret!) } },
    );
    expect(await codeOf(() => verifyDpopProof(proof, options()))).toBe('ERR_DPOP_ALG_NOT_ALLOWED');
    // An allow-list cannot name it.
    expect(
      await codeOf(() => verifyDpopProof(proof, options({ algorithms: ['HS256'] as unknown as DpopAlgorithm[] }))),
    ).toBe('ERR_OPTIONS_INVALID');
    const es = await generate('ES256');
    const none =
      `${b64u(JSON.stringify({ alg: 'none', typ: 'dpop+jwt', jwk: es.publicJwk }))}.` +
      `${b64u(JSON.stringify({ jti: 'j', htm: 'GET', htu: URL_, iat: NOW }))}.c2ln`;
    expect(await codeOf(() => verifyDpopProof(none, options()))).toBe('ERR_DPOP_ALG_NOT_ALLOWED');
    // An asymmetric algorithm outside the allow-list.
    expect(await codeOf(async () => verifyDpopProof(await proofFor(es), options({ algorithms: ['EdDSA'] })))).toBe(
      'ERR_DPOP_ALG_NOT_ALLOWED',
    );
  });

  it('dpop_typ_exact: typ must be exactly dpop+jwt (ERR_DPOP_TYP_INVALID)', async () => {
    const pair = await generate('ES256');
    for (const typ of ['JWT', 'DPOP+JWT', 'application/dpop+jwt', 'at+jwt', undefined, 7]) {
      expect(
        await codeOf(async () => verifyDpopProof(await proofFor(pair, { header: { typ } }), options())),
        String(typ),
      ).toBe(typ === 7 ? 'ERR_DPOP_PROOF_INVALID' : 'ERR_DPOP_TYP_INVALID');
    }
  });

  it('dpop_signature_under_jwk: a proof signed by another key than its jwk (ERR_DPOP_SIGNATURE_INVALID)', async () => {
    const pair = await generate('ES256');
    const other = await generate('ES256');
    expect(await codeOf(async () => verifyDpopProof(await proofFor(pair, { signer: other }), options()))).toBe(
      'ERR_DPOP_SIGNATURE_INVALID',
    );
  });

  it('dpop_key_cache_by_thumbprint: a cached key never verifies a proof made by another key', async () => {
    const a = await generate('ES256');
    const b = await generate('ES256');
    // a's key is now cached
    expect((await verifyDpopProof(await proofFor(a), options())).jkt).toBe(jwkThumbprint(a.publicJwk));
    expect(await codeOf(async () => verifyDpopProof(await proofFor(a, { signer: b }), options()))).toBe(
      'ERR_DPOP_SIGNATURE_INVALID',
    );
    expect((await verifyDpopProof(await proofFor(b), options())).jkt).toBe(jwkThumbprint(b.publicJwk));
    // And the cached key still serves its own later proofs.
    expect((await verifyDpopProof(await proofFor(a, { payload: { jti: 'jti-2' } }), options())).jti).toBe('jti-2');
  });

  it('refuses a jwk that is missing, not an object, malformed or on another curve (ERR_DPOP_JWK_INVALID)', async () => {
    const pair = await generate('ES256');
    const p384 = await generate('ES384');
    const { x, y } = pair.publicJwk;
    for (const jwk of [
      undefined,
      'key',
      [pair.publicJwk],
      { kty: 'EC', crv: 'P-256', x },
      { kty: 'EC', crv: 'P-256', x, y: `${y}A` },
      p384.publicJwk,
      { ...pair.publicJwk, alg: 'ES384' },
      { ...pair.publicJwk, use: 'enc' },
    ]) {
      expect(
        await codeOf(async () => verifyDpopProof(await proofFor(pair, { header: { jwk } }), options())),
        JSON.stringify(jwk),
      ).toBe('ERR_DPOP_JWK_INVALID');
    }
    // A key the library would refuse anywhere else: an RSA modulus below 2048 bits.
    const short = await generate('RS256', { modulusLength: 1024 });
    expect(await codeOf(async () => verifyDpopProof(await proofFor(short), options()))).toBe('ERR_DPOP_JWK_INVALID');
  });

  it('requires jti: a non-empty string of at most 256 characters (ERR_DPOP_JTI_INVALID)', async () => {
    const pair = await generate('ES256');
    for (const jti of [undefined, '', 42, ['a'], 'x'.repeat(257)]) {
      expect(
        await codeOf(async () => verifyDpopProof(await proofFor(pair, { payload: { jti } }), options())),
        String(jti),
      ).toBe('ERR_DPOP_JTI_INVALID');
    }
    expect(
      (await verifyDpopProof(await proofFor(pair, { payload: { jti: 'x'.repeat(256) } }), options())).jti,
    ).toHaveLength(256);
  });

  it(
    'dpop_replay_key_injective: two different jti values under one key never share a replayKey (lone surrogates ' +
      'refused)',
    async () => {
      const pair = await generate('ES256');
      // Each jti as JSON text, so lone surrogates reach the proof as the escapes a client would send.
      const proofWithJtiText = (jtiJson: string) =>
        mint(pair, `{"jti":${jtiJson},"htm":"GET","htu":"${URL_}","iat":${NOW}}`, {
          typ: 'dpop+jwt',
          jwk: pair.publicJwk,
        });
      const keys = new Map<string, string>();
      await fc.assert(
        fc.asyncProperty(
          fc.string({
            unit: fc.constantFrom('a', '.', '\ud800', '\udfff', '\ufffd', '\ud83d\ude00', 'é'),
            minLength: 1,
            maxLength: 6,
          }),
          async (jti) => {
            const text = JSON.stringify(jti).replace(/[\ud800-\udfff]/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
            let key: string;
            try {
              key = (await verifyDpopProof(await proofWithJtiText(text), options({ accessToken: undefined })))
                .replayKey;
            } catch (e) {
              // Refused only for a lone surrogate.
              expect((e as { code?: string }).code).toBe('ERR_DPOP_JTI_INVALID');
              expect(/[\ud800-\udfff]/u.test(jti)).toBe(true);
              return;
            }
            const before = keys.get(key);
            if (before !== undefined) expect(before).toBe(jti);
            keys.set(key, jti);
          },
        ),
        { numRuns: 300, seed: 20261127 },
      );
    },
  );

  it('requires iat as a number in the window (ERR_DPOP_IAT_INVALID)', async () => {
    const pair = await generate('ES256');
    for (const iat of [undefined, String(NOW), NOW - 66, NOW + 6, null]) {
      expect(
        await codeOf(async () => verifyDpopProof(await proofFor(pair, { payload: { iat } }), options())),
        String(iat),
      ).toBe('ERR_DPOP_IAT_INVALID');
    }
  });

  it('requires ath when an access token is given, and that it matches (ERR_DPOP_ATH_MISMATCH)', async () => {
    const pair = await generate('ES256');
    const noAth = await proofFor(pair, { payload: { ath: undefined } });
    expect(await codeOf(() => verifyDpopProof(noAth, options()))).toBe('ERR_DPOP_ATH_MISMATCH');
    expect(await codeOf(() => verifyDpopProof(noAth, options({ accessToken: undefined })))).toBe('OK');
    const wrong = await proofFor(pair, { payload: { ath: dpopAccessTokenHash('another-token') } });
    expect(await codeOf(() => verifyDpopProof(wrong, options()))).toBe('ERR_DPOP_ATH_MISMATCH');
    const notString = await proofFor(pair, { payload: { ath: 5 } });
    expect(await codeOf(() => verifyDpopProof(notString, options()))).toBe('ERR_DPOP_ATH_MISMATCH');
    // A token that is not ASCII has no ath.
    expect(await codeOf(async () => verifyDpopProof(await proofFor(pair), options({ accessToken: 'tökén' })))).toBe(
      'ERR_DPOP_ATH_MISMATCH',
    );
  });

  it('checks the nonce when one is expected (ERR_DPOP_NONCE_MISMATCH)', async () => {
    const pair = await generate('ES256');
    const withNonce = await proofFor(pair, { payload: { nonce: 'n-1' } });
    expect((await verifyDpopProof(withNonce, options({ nonce: 'n-1' }))).nonce).toBe('n-1');
    expect((await verifyDpopProof(withNonce, options({ nonce: ['n-0', 'n-1'] }))).nonce).toBe('n-1');
    expect(await codeOf(() => verifyDpopProof(withNonce, options({ nonce: 'n-2' })))).toBe('ERR_DPOP_NONCE_MISMATCH');
    expect(await codeOf(async () => verifyDpopProof(await proofFor(pair), options({ nonce: 'n-1' })))).toBe(
      'ERR_DPOP_NONCE_MISMATCH',
    );
    expect(await codeOf(async () => verifyDpopProof(await proofFor(pair, { payload: { nonce: 1 } }), options()))).toBe(
      'ERR_DPOP_NONCE_MISMATCH',
    );
  });

  it('refuses what is not a compact JWS with JSON parts (ERR_DPOP_PROOF_INVALID)', async () => {
    const pair = await generate('ES256');
    const good = await proofFor(pair);
    const [h, , s] = good.split('.') as [string, string, string];
    const notJson = await mint(pair, 'not json', { typ: 'dpop+jwt', jwk: pair.publicJwk });
    const emptyPayload = await mint(pair, '', { typ: 'dpop+jwt', jwk: pair.publicJwk });
    for (const proof of [
      '',
      'a.b',
      `${good}.x`,
      `${h}.${s}`,
      emptyPayload,
      `${good}=`,
      'x'.repeat(9000),
      notJson,
      await proofFor(pair, { header: { crit: ['exp'], exp: 1 } }),
    ]) {
      expect(await codeOf(() => verifyDpopProof(proof, options())), `${proof.slice(0, 20)}…${proof.slice(-10)}`).toBe(
        'ERR_DPOP_PROOF_INVALID',
      );
    }
    expect(await codeOf(() => verifyDpopProof(42 as unknown as string, options()))).toBe('ERR_DPOP_PROOF_INVALID');
  });

  it('never puts the proof, the access token or the key in an error message', async () => {
    const pair = await generate('ES256');
    const other = await generate('ES256');
    const proof = await proofFor(pair, { signer: other });
    for (const o of [options(), options({ method: 'POST' }), options({ accessToken: 'secret-token-value' })]) {
      const e = await verifyDpopProof(proof, o).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(isJwtError(e)).toBe(true);
      const text = `${(e as Error).message} ${String((e as Error).cause ?? '')}`;
      expect(text).not.toContain(proof.split('.')[2]!);
      expect(text).not.toContain('secret-token-value');
      expect(text).not.toContain(pair.publicJwk.x!);
    }
  });

  it('checks its options (ERR_OPTIONS_INVALID)', async () => {
    const pair = await generate('ES256');
    const proof = await proofFor(pair);
    const bad: Partial<Record<keyof DpopProofOptions | 'methd', unknown>>[] = [
      { algorithms: [] },
      { algorithms: ['none'] },
      { url: '/relative' },
      { url: 'ftp://api.example.com/x' },
      { url: 'api.example.com/v1/things' },
      { url: 42 },
      { method: '' },
      { maxAge: -1 },
      { clockTolerance: Number.NaN },
      { nonce: [] },
      { accessToken: '' },
      { currentDate: new Date(Number.NaN) },
      { maxProofLength: 1e9 },
      { methd: 'GET' },
    ];
    for (const b of bad)
      expect(
        await codeOf(() => verifyDpopProof(proof, { ...options(), ...b } as DpopProofOptions)),
        JSON.stringify(b),
      ).toBe('ERR_OPTIONS_INVALID');
  });
});

describe('DPoP: request-borne input is never a server fault', () => {
  // ERR_OPTIONS_INVALID and ERR_WASM_CORE are what serverFault() calls the server's (a 500 and a log line).

  it(
    'dpop_request_url_not_options_fault: a request URL with userinfo, a bad host or a long path is ' +
      'ERR_DPOP_HTU_MISMATCH; a long query is ignored',
    async () => {
      const pair = await generate('ES256');
      const proof = await proofFor(pair);
      // What a Node integrator builds from a Host header (`http://${host}${req.url}`) or a long request line.
      for (const url of [
        'https://user:pw@api.example.com/v1/things',
        'https://api.example.com:99999/v1/things',
        'https://api exa.com/v1/things',
        `https://api.example.com/v1/things/${'a'.repeat(9000)}`,
      ]) {
        expect(await codeOf(() => verifyDpopProof(proof, options({ url }))), url.slice(0, 60)).toBe(
          'ERR_DPOP_HTU_MISMATCH',
        );
      }
      // The query is not compared: its length does not matter either (proof htu or request URL).
      const longQuery = `${URL_}?filter=${'q'.repeat(20_000)}#${'f'.repeat(100)}`;
      expect((await verifyDpopProof(proof, options({ url: longQuery }))).htu).toBe(URL_);
      expect((await verifyDpopProof(proof, options({ url: new URL(longQuery) }))).htu).toBe(URL_);
      expect(htuForm(longQuery)).toBe(URL_);
      const proofWithQuery = await proofFor(pair, { payload: { htu: `${URL_}?${'q'.repeat(9000)}` } });
      expect((await verifyDpopProof(proofWithQuery, options({ maxProofLength: 20_000 }))).jkt).toBe(
        jwkThumbprint(pair.publicJwk),
      );
    },
  );

  it(
    'dpop_long_access_token_not_core_fault: ath and thumbprints of input beyond 64 KiB are computed, not ' +
      'ERR_WASM_CORE',
    async () => {
      const pair = await generate('ES256');
      const longToken = `${'a'.repeat(70_000)}.b.c`;
      const expected = b64u(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(longToken))));
      expect(dpopAccessTokenHash(longToken)).toBe(expected);
      expect(await codeOf(async () => verifyDpopProof(await proofFor(pair), options({ accessToken: longToken })))).toBe(
        'ERR_DPOP_ATH_MISMATCH',
      );
      expect(
        await codeOf(async () =>
          verifyDpopProof(await proofFor(pair, { payload: { ath: expected } }), options({ accessToken: longToken })),
        ),
      ).toBe('OK');
      // A key set member of any length (thumbprints are asked of keys from the network too).
      const n = 'A'.repeat(70_000);
      const canonical = `{"e":"AQAB","kty":"RSA","n":"${n}"}`;
      expect(jwkThumbprint({ kty: 'RSA', e: 'AQAB', n })).toBe(
        b64u(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical)))),
      );
    },
  );
});

describe('DPoP: proofs made by jose', () => {
  for (const alg of ['ES256', 'EdDSA', 'RS256', 'PS256'] as const) {
    it(`${alg}: jose's proof verifies, with the thumbprint jose computes`, async () => {
      const { privateKey, publicKey } = await jose.generateKeyPair(alg === 'EdDSA' ? 'Ed25519' : alg, {
        extractable: true,
      });
      const jwk = await jose.exportJWK(publicKey);
      const proof = await new jose.SignJWT({
        htm: 'POST',
        htu: `${URL_}?page=2`,
        ath: dpopAccessTokenHash(ACCESS_TOKEN),
      })
        .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
        .setIssuedAt(NOW)
        .setJti(crypto.randomUUID())
        .sign(privateKey);
      const p = await verifyDpopProof(proof, options({ method: 'POST', url: `${URL_}#section` }));
      expect(p.jkt).toBe(await jose.calculateJwkThumbprint(jwk, 'sha256'));
      expect(p.alg).toBe(alg);
      // And a proof for another URL from the same key is refused.
      expect(await codeOf(() => verifyDpopProof(proof, options({ method: 'POST', url: `${URL_}/other` })))).toBe(
        'ERR_DPOP_HTU_MISMATCH',
      );
    });
  }
});

describe('checkDpopBinding', () => {
  it('passes when cnf.jkt is the proof key, refuses anything else (ERR_DPOP_BINDING_MISMATCH)', () => {
    const proof = { jkt: vectors.jkt };
    expect(codeOfSync(() => checkDpopBinding({ sub: 'u', cnf: { jkt: vectors.jkt } }, proof))).toBe('OK');
    expect(codeOfSync(() => checkDpopBinding({ cnf: { jkt: vectors.jkt } }, vectors.jkt))).toBe('OK');
    for (const payload of [
      {},
      { cnf: null },
      { cnf: 'x' },
      { cnf: [vectors.jkt] },
      { cnf: {} },
      { cnf: { jkt: 5 } },
      { cnf: { jkt: `${vectors.jkt}x` } },
      { cnf: { 'x5t#S256': vectors.jkt } },
    ]) {
      expect(
        codeOfSync(() => checkDpopBinding(payload, proof)),
        JSON.stringify(payload),
      ).toBe('ERR_DPOP_BINDING_MISMATCH');
    }
    expect(codeOfSync(() => checkDpopBinding({ cnf: { jkt: '' } }, ''))).toBe('ERR_DPOP_BINDING_MISMATCH');
    // A cnf inherited from the prototype is not the token's.
    expect(
      codeOfSync(() =>
        checkDpopBinding(Object.create({ cnf: { jkt: vectors.jkt } }) as Record<string, unknown>, proof),
      ),
    ).toBe('ERR_DPOP_BINDING_MISMATCH');
  });
});

describe('htu comparison (fast-check)', () => {
  const segment = fc.stringMatching(/^[A-Za-z0-9\-_~]{1,12}$/);
  const path = fc.array(segment, { minLength: 0, maxLength: 5 }).map((s) => `/${s.join('/')}`);
  const query = fc.stringMatching(/^[A-Za-z0-9=&%._~-]{0,20}$/);
  const host = fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/).map((h) => `${h}.example`);
  const cfg = { numRuns: 300, seed: 20261127 };

  it('query and fragment never matter', () => {
    fc.assert(
      fc.property(host, path, query, query, (h, p, q, f) => {
        const base = `https://${h}${p}`;
        expect(htuForm(`${base}?${q}#${f}`)).toBe(htuForm(base));
        expect(htuForm(`${base}#${f}`)).toBe(htuForm(base));
      }),
      cfg,
    );
  });

  it('scheme and host case, the default port and escaped unreserved characters never matter', () => {
    fc.assert(
      fc.property(host, path, fc.boolean(), (h, p, tls) => {
        const scheme = tls ? 'https' : 'http';
        const port = tls ? 443 : 80;
        const plain = htuForm(`${scheme}://${h}${p}`);
        expect(htuForm(`${scheme.toUpperCase()}://${h.toUpperCase()}:${port}${p}`)).toBe(plain);
        const escaped = p.replace(/[A-Za-z~]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
        expect(htuForm(`${scheme}://${h}${escaped}`)).toBe(plain);
      }),
      cfg,
    );
  });

  it('another path, host, port or scheme always matters', () => {
    fc.assert(
      fc.property(host, path, segment, fc.integer({ min: 1, max: 65535 }), (h, p, extra, port) => {
        const plain = htuForm(`https://${h}${p}`);
        expect(htuForm(`https://${h}${p === '/' ? '' : p}/${extra}`)).not.toBe(plain);
        expect(htuForm(`https://x${h}${p}`)).not.toBe(plain);
        expect(htuForm(`http://${h}${p}`)).not.toBe(plain);
        if (port !== 443) expect(htuForm(`https://${h}:${port}${p}`)).not.toBe(plain);
        // Case in the path is significant.
        if (/[a-z]/.test(p)) expect(htuForm(`https://${h}${p.toUpperCase()}`)).not.toBe(plain);
      }),
      cfg,
    );
  });

  it(
    'htu_cut_at_query_parses_same: cutting at the first ? or # (the length bound) gives what parsing the whole ' +
      'URL gives',
    () => {
      // Reference: the whole string through the URL parser, then query and fragment dropped.
      const reference = (v: string): string | undefined => {
        let u: URL;
        try {
          u = new URL(v);
        } catch {
          return undefined;
        }
        if ((u.protocol !== 'https:' && u.protocol !== 'http:') || u.username !== '' || u.password !== '')
          return undefined;
        const p = u.pathname.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => {
          const c = String.fromCharCode(parseInt(h, 16));
          return /^[A-Za-z0-9\-._~]$/.test(c) ? c : `%${h.toUpperCase()}`;
        });
        return `${u.protocol}//${u.host}${p}`;
      };
      const hostile = fc.string({
        unit: fc.constantFrom(
          'a',
          'B',
          '.',
          '/',
          '\\',
          '?',
          '#',
          '@',
          ':',
          '[',
          ']',
          '%',
          '2',
          'e',
          'E',
          '\t',
          ' ',
          '1',
          '8',
          '0',
          'x',
          '~',
        ),
        maxLength: 30,
      });
      fc.assert(
        fc.property(
          fc.constantFrom(
            'https://',
            'http://',
            'HTTPS:',
            'https:\\\\',
            ' https://',
            'https:/',
            'http://u@',
            'https://[::1]',
          ),
          hostile,
          (scheme, rest) => {
            const v = `${scheme}${rest}`;
            expect(htuForm(v), JSON.stringify(v)).toBe(reference(v));
          },
        ),
        { numRuns: 2000, seed: 20261127 },
      );
    },
  );

  it('a signed proof whose htu carries a query and fragment matches its request, and only it', async () => {
    const pair = await generate('ES256');
    await fc.assert(
      fc.asyncProperty(path, query, query, async (p, q, f) => {
        const htu = `${URL_}${p}?${q}#${f}`;
        const proof = await proofFor(pair, { payload: { htu } });
        expect(await codeOf(() => verifyDpopProof(proof, options({ url: `${URL_}${p}` })))).toBe('OK');
        expect(await codeOf(() => verifyDpopProof(proof, options({ url: `${URL_}${p}x` })))).toBe(
          'ERR_DPOP_HTU_MISMATCH',
        );
      }),
      { numRuns: 40, seed: 20261127 },
    );
  });
});
