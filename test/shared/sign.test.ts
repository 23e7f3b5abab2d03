// createSigner in every runtime: each algorithm signs with a private JWK and a
// CryptoKey and edgejwt's strict verifier accepts the result; option semantics;
// payload and header refusals; the same key rules as verify; signSync serves HS*
// everywhere and the rest only where the node:crypto backend is selected.
import { signBackend } from '#crypto-backend';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SUPPORTED_ALGORITHMS,
  createSigner,
  type Algorithm,
  createVerifier,
  decodeUnverified,
  type JWK,
  type PrivateJWK,
} from '../../src/index.js';
import { getCore } from '../../src/wasm/instance.js';
import { coreMemory } from '../../src/wasm/core.js';
import { coreHash } from '../../src/wasm/core-hash.js';
import { seededBytes, indexOfBytes } from './bytes.js';
import { b64u, codeOf, codeOfSync, generate, unb64u, type KeyPair } from './jwt-mint.js';

const SYNC_EVERYWHERE = signBackend.name === 'node';

async function privateJwk(pair: KeyPair): Promise<PrivateJWK> {
  if (pair.secret !== undefined) return { kty: 'oct', k: pair.publicJwk.k! };
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as PrivateJWK & { ext?: boolean };
  delete jwk.key_ops;
  delete jwk.ext;
  delete jwk.alg;
  return jwk;
}

function verifierFor(pair: KeyPair, extra: Record<string, unknown> = {}) {
  const key = pair.secret ?? (pair.publicJwk as JWK);
  return createVerifier({ algorithms: [pair.alg as Algorithm], key, ...extra });
}

describe('createSigner: every algorithm the verifier has', () => {
  for (const alg of SUPPORTED_ALGORITHMS as readonly Algorithm[]) {
    it(`${alg}: tokens from a private JWK and from a CryptoKey pass the strict verifier`, async () => {
      const pair = await generate(alg);
      const v = verifierFor(pair, { issuer: 'https://issuer.example', audience: 'api' });
      const inputs = [pair.secret ?? (await privateJwk(pair)), pair.privateKey];
      for (const key of inputs) {
        const signer = createSigner({ alg, key });
        const token = await signer.sign(
          { sub: 'user-1', scope: 'read' },
          { expiresIn: 300, issuer: 'https://issuer.example', audience: 'api' },
        );
        const { payload, header } = await v.verify(token);
        expect(header).toEqual({ alg, typ: 'JWT' });
        expect(payload.sub).toBe('user-1');
        expect(payload.exp).toBe(payload.iat! + 300);
      }
    });

    it(
      `${alg}: signSync ` + `${alg.startsWith('HS') || SYNC_EVERYWHERE ? 'signs' : 'throws ERR_ASYNC_REQUIRED'} here`,
      async () => {
        const pair = await generate(alg);
        const signer = createSigner({ alg, key: pair.secret ?? (await privateJwk(pair)) });
        if (alg.startsWith('HS') || SYNC_EVERYWHERE) {
          const token = signer.signSync({ sub: 'u' }, { expiresIn: 60 });
          expect((await verifierFor(pair).verify(token)).payload.sub).toBe('u');
        } else {
          expect(codeOfSync(() => signer.signSync({ sub: 'u' }))).toBe('ERR_ASYNC_REQUIRED');
        }
      },
    );
  }

  it('HS256 signatures are the HMAC WebCrypto computes (byte for byte)', async () => {
    const pair = await generate('HS256');
    const token = createSigner({ alg: 'HS256', key: pair.secret! }).signSync({ n: 1 }, { iat: 1 });
    const input = token.slice(0, token.lastIndexOf('.'));
    const tag = new Uint8Array(await crypto.subtle.sign('HMAC', pair.privateKey, new TextEncoder().encode(input)));
    const ours = token.slice(token.lastIndexOf('.') + 1);
    expect(ours).toBe(
      btoa(String.fromCharCode(...tag))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, ''),
    );
  });

  // The core writes HS* tokens itself (payload base64url, MAC and tag in one call):
  // each must be exactly the text built here with TextEncoder, btoa and WebCrypto.
  it(
    'HS* tokens are byte for byte base64url(header).base64url(claims JSON).base64url(HMAC), for random and ' +
      'non-ASCII payloads',
    async () => {
      const payloads = fc.sample(
        fc.dictionary(
          fc.string({ unit: 'grapheme', maxLength: 12 }).filter((k) => !['exp', 'nbf', 'iat', '__proto__'].includes(k)),
          fc.jsonValue({ maxDepth: 3 }),
          { maxKeys: 8 },
        ),
        { numRuns: 60, seed: 0x7e57 },
      );
      payloads.push({}, { s: 'é€😀\u2028\ud800' }, { s: 'x'.repeat(1000) });
      for (const [alg, hash] of [
        ['HS256', 'SHA-256'],
        ['HS384', 'SHA-384'],
        ['HS512', 'SHA-512'],
      ] as const) {
        const secret = seededBytes(alg.length + 9, Number(alg.slice(2)) / 8);
        const key = await crypto.subtle.importKey('raw', secret as BufferSource, { name: 'HMAC', hash }, false, [
          'sign',
        ]);
        const signer = createSigner({ alg, key: secret, header: { kid: 'k1' } });
        for (let i = 0; i < payloads.length; i++) {
          const payload = payloads[i]!;
          // Every third call sets an issuer longer than the core keeps between signs (256 bytes).
          const iss = i % 3 === 2 ? { issuer: `https://${'i'.repeat(i * 10)}` } : {};
          const token = signer.signSync(payload, {
            iat: 1_800_000_000 + i,
            expiresIn: 60,
            header: i % 2 ? { cty: 'x' } : undefined,
            ...iss,
          });
          const header = b64u(JSON.stringify({ alg, typ: 'JWT', kid: 'k1', ...(i % 2 ? { cty: 'x' } : {}) }));
          const claims = {
            ...payload,
            iat: 1_800_000_000 + i,
            exp: 1_800_000_060 + i,
            ...(iss.issuer === undefined ? {} : { iss: iss.issuer }),
          };
          const input = `${header}.${b64u(JSON.stringify(claims))}`;
          const tag = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(input)));
          expect(token).toBe(`${input}.${b64u(tag)}`);
        }
      }
    },
  );

  it(
    'HS* at the size limit: the longest signing input the verifier takes is signed, one byte more is ' +
      'ERR_JWT_TOO_LARGE (bytes, not characters, count)',
    () => {
      const secret = seededBytes(11, 32);
      const signer = createSigner({ alg: 'HS256', key: secret });
      const v = createVerifier({
        algorithms: ['HS256'],
        key: secret,
        requireExp: false,
        cache: false,
        maxTokenLength: 65_536,
      });
      // Header segment 36 characters, so the payload's base64url may take 65_536 - 1024 - 37
      // characters: 48_356 bytes of JSON, {"b":"..."} around 48_348 of them.
      const longest = signer.signSync({ b: 'x'.repeat(48_348) }, { iat: false });
      expect(longest.lastIndexOf('.')).toBe(65_536 - 1024);
      expect(v.verifySync(longest).payload.b).toHaveLength(48_348);
      expect(codeOfSync(() => signer.signSync({ b: 'x'.repeat(48_349) }, { iat: false }))).toBe('ERR_JWT_TOO_LARGE');
      // Three bytes per character: 16_116 of them are 48_348 bytes, one more does not fit.
      expect(v.verifySync(signer.signSync({ b: '€'.repeat(16_116) }, { iat: false })).payload.b).toHaveLength(16_116);
      expect(codeOfSync(() => signer.signSync({ b: '€'.repeat(16_117) }, { iat: false }))).toBe('ERR_JWT_TOO_LARGE');
      // Four bytes per two UTF-16 units; the core's claims region (49_152 bytes) overflows as well.
      expect(codeOfSync(() => signer.signSync({ b: '😀'.repeat(12_288) }, { iat: false }))).toBe('ERR_JWT_TOO_LARGE');
      expect(v.verifySync(signer.signSync({ b: '😀'.repeat(12_087) }, { iat: false })).payload.b).toHaveLength(24_174);
    },
  );

  it('HS* signing leaves neither the secret nor its pads in Wasm memory', () => {
    // The search itself finds what is there (so -1 below means absent).
    expect(indexOfBytes(Uint8Array.of(0, 1, 2, 0, 0, 1, 2, 3), Uint8Array.of(0, 1, 2, 3))).toBe(4);
    for (const [alg, size] of [
      ['HS256', 32],
      ['HS384', 48],
      ['HS512', 64],
    ] as const) {
      const secret = seededBytes(40 + size, size);
      const signer = createSigner({ alg, key: secret });
      for (let i = 0; i < 3; i++) signer.signSync({ i });
      const memory = coreMemory(getCore());
      expect(indexOfBytes(memory, secret)).toBe(-1);
      expect(
        indexOfBytes(
          memory,
          secret.map((b) => b ^ 0x36),
        ),
      ).toBe(-1);
      expect(
        indexOfBytes(
          memory,
          secret.map((b) => b ^ 0x5c),
        ),
      ).toBe(-1);
    }
  });

  it('a verify after a sign over the same core regions still decodes its own token', async () => {
    const secret = seededBytes(7, 32);
    const signer = createSigner({ alg: 'HS256', key: secret });
    const v = createVerifier({ algorithms: ['HS256'], key: secret, cache: false, requireExp: false });
    const a = signer.signSync({ a: 1 });
    expect(v.verifySync(a).payload.a).toBe(1);
    signer.signSync({ b: 2 });
    expect(v.verifySync(a).payload.a).toBe(1);
  });

  it(
    "a sign after other use of the core regions still writes its own header (the core keeps a signer's header " +
      'between signs only)',
    async () => {
      const secret = seededBytes(8, 32);
      const signer = createSigner({ alg: 'HS256', key: secret, header: { kid: 'k1' } });
      const other = createSigner({ alg: 'HS256', key: secret, header: { kid: 'other-key-id' } });
      const v = createVerifier({ algorithms: ['HS256'], key: secret, cache: false, requireExp: false });
      const first = signer.signSync({ a: 1 }, { iat: 5 });
      // A verify of a longer token overwrites INPUT from its start, as does another signer's header and a hash.
      v.verifySync(other.signSync({ a: 1 }, { iat: 5 }));
      expect(signer.signSync({ a: 1 }, { iat: 5 })).toBe(first);
      other.signSync({ a: 1 }, { iat: 5 });
      expect(signer.signSync({ a: 1 }, { iat: 5 })).toBe(first);
      coreHash(getCore(), 'SHA-256', new Uint8Array(100).fill(0x41));
      expect(signer.signSync({ a: 1 }, { iat: 5 })).toBe(first);
      expect(v.verifySync(first).header.kid).toBe('k1');
    },
  );
});

describe('sign options', () => {
  const secret = seededBytes(3, 32);
  const signer = createSigner({ alg: 'HS256', key: secret });
  const claimsOf = (t: string) => decodeUnverified(t).payload as Record<string, unknown>;

  it('iat defaults to now; expiresIn and notBefore count from iat', () => {
    const before = Math.floor(Date.now() / 1000);
    const p = claimsOf(signer.signSync({}, { expiresIn: 60, notBefore: 5 }));
    expect(p.iat).toBeGreaterThanOrEqual(before);
    expect(p.exp).toBe((p.iat as number) + 60);
    expect(p.nbf).toBe((p.iat as number) + 5);
  });

  it('iat: a fixed value, or false to leave it out', () => {
    expect(claimsOf(signer.signSync({ a: 1 }, { iat: 1000, expiresIn: 10 }))).toEqual({ a: 1, iat: 1000, exp: 1010 });
    expect(claimsOf(signer.signSync({ a: 1 }, { iat: false }))).toEqual({ a: 1 });
  });

  it(
    "time claims follow each call's own options, also for calls in the same second (the time text is reused " +
      'only for equal values)',
    () => {
      const calls: [Record<string, unknown>, Parameters<typeof signer.signSync>[1], Record<string, unknown>][] = [
        [{}, { iat: 100, expiresIn: 60 }, { iat: 100, exp: 160 }],
        [{}, { iat: 100, expiresIn: 61 }, { iat: 100, exp: 161 }],
        [{}, { iat: 100, expiresIn: 61, notBefore: -1 }, { iat: 100, exp: 161, nbf: 99 }],
        [{}, { iat: 100, notBefore: -1 }, { iat: 100, nbf: 99 }],
        [{ iat: 7 }, { iat: false }, { iat: 7 }],
        [{ iat: 7 }, { expiresIn: 1 }, { iat: 7, exp: 8 }],
        [{}, { iat: 100, expiresIn: 60 }, { iat: 100, exp: 160 }],
        [{ a: 1 }, { iat: -0, expiresIn: 5 }, { a: 1, iat: 0, exp: 5 }],
        [{ a: 1 }, { iat: 0, expiresIn: 5 }, { a: 1, iat: 0, exp: 5 }],
      ];
      for (const [payload, o, expected] of calls) expect(claimsOf(signer.signSync(payload, o))).toEqual(expected);
      const before = Math.floor(Date.now() / 1000);
      const p = claimsOf(signer.signSync({}));
      expect(Object.keys(p)).toEqual(['iat']);
      expect(p.iat).toBeGreaterThanOrEqual(before);
      expect(claimsOf(signer.signSync({}, { iat: false }))).toEqual({});
      const e = claimsOf(signer.signSync({}, { iat: false, expiresIn: 61 }));
      expect(Object.keys(e)).toEqual(['exp']);
      expect(e.exp).toBeGreaterThanOrEqual(before + 61);
    },
  );

  it('a payload iat is kept unless options set one', () => {
    expect(claimsOf(signer.signSync({ iat: 5 }))).toEqual({ iat: 5 });
    expect(claimsOf(signer.signSync({ iat: 5 }, { expiresIn: 1 }))).toEqual({ iat: 5, exp: 6 });
    expect(claimsOf(signer.signSync({ iat: 5 }, { iat: 7 }))).toEqual({ iat: 7 });
  });

  it('issuer, subject, audience and jwtId set iss, sub, aud, jti (options win over payload members)', () => {
    const p = claimsOf(
      signer.signSync(
        { iss: 'old', x: [1, { y: 'z' }] },
        { iat: 1, issuer: 'https://i', subject: 's', audience: ['a', 'b'], jwtId: 'j-1' },
      ),
    );
    expect(p).toEqual({ iss: 'https://i', x: [1, { y: 'z' }], iat: 1, sub: 's', aud: ['a', 'b'], jti: 'j-1' });
  });

  it('header members: kid from the signer, overridable per call; alg fixed; typ removable', () => {
    const s = createSigner({ alg: 'HS256', key: secret, header: { kid: 'k1' } });
    expect(decodeUnverified(s.signSync({})).header).toEqual({ alg: 'HS256', typ: 'JWT', kid: 'k1' });
    expect(decodeUnverified(s.signSync({}, { header: { kid: 'k2', typ: 'at+jwt' } })).header).toEqual({
      alg: 'HS256',
      typ: 'at+jwt',
      kid: 'k2',
    });
    expect(decodeUnverified(s.signSync({}, { header: { typ: undefined } })).header).toEqual({
      alg: 'HS256',
      kid: 'k1',
    });
    expect(decodeUnverified(s.signSync({}, { header: { alg: 'HS256' } })).header.alg).toBe('HS256');
  });

  it('refuses headers the verifier would refuse: another alg, crit, b64:false, a long kid', () => {
    for (const header of [
      { alg: 'none' },
      { alg: 'RS256' },
      { crit: ['exp'], exp: 1 },
      { b64: false },
      { kid: 'k'.repeat(257) },
      { kid: 7 },
      { typ: 1 },
    ]) {
      expect(codeOfSync(() => signer.signSync({}, { header }))).toBe('ERR_OPTIONS_INVALID');
    }
  });

  it('refuses unknown options and ill-typed values (ERR_OPTIONS_INVALID)', () => {
    for (const o of [
      { expiresin: 1 },
      { expiresIn: '1h' },
      { expiresIn: Infinity },
      { notBefore: NaN },
      { issuer: 1 },
      { issuer: '' },
      { audience: [] },
      { audience: [1] },
      { subject: {} },
      { jwtId: 2 },
      { iat: 'now' },
    ]) {
      expect(codeOfSync(() => signer.signSync({}, o as never))).toBe('ERR_OPTIONS_INVALID');
    }
    expect(codeOfSync(() => createSigner({ alg: 'HS256', key: secret, kid: 'x' } as never))).toBe(
      'ERR_OPTIONS_INVALID',
    );
    // @ts-expect-error 'none' is not an Algorithm: this is the JavaScript caller's view
    expect(codeOfSync(() => createSigner({ alg: 'none', key: secret }))).toBe('ERR_OPTIONS_INVALID');
    expect(codeOfSync(() => createSigner({ alg: 'HS256' } as never))).toBe('ERR_OPTIONS_INVALID');
  });

  it('refuses payloads that are not JSON objects or carry non-numeric time claims (ERR_JWT_PAYLOAD_INVALID)', () => {
    const bad: unknown[] = [
      [],
      'x',
      null,
      new Date(),
      new Map(),
      { exp: '1' },
      { nbf: Infinity },
      { iat: null },
      { big: 1n },
      { toJSON: () => 3 },
    ];
    for (const p of bad) expect(codeOfSync(() => signer.signSync(p as never))).toBe('ERR_JWT_PAYLOAD_INVALID');
  });

  it('refuses a token longer than the verifier accepts (ERR_JWT_TOO_LARGE)', () => {
    expect(codeOfSync(() => signer.signSync({ blob: 'x'.repeat(60_000) }))).toBe('ERR_JWT_TOO_LARGE');
  });

  it('non-ASCII claims round-trip through the strict verifier', () => {
    const v = createVerifier({ algorithms: ['HS256'], key: secret, requireExp: false });
    const weird = { name: 'Zoë 🎉 \u2028', lone: '\ud800', nested: { ключ: ['значение'] } };
    expect(v.verifySync(signer.signSync(weird)).payload).toMatchObject(weird);
  });
});

describe('signing keys are checked as for verify', () => {
  it('HMAC secrets below the RFC 7518 minimum: ERR_KEY_TOO_SHORT', () => {
    expect(codeOfSync(() => createSigner({ alg: 'HS256', key: new Uint8Array(31) }))).toBe('ERR_KEY_TOO_SHORT');
    expect(codeOfSync(() => createSigner({ alg: 'HS512', key: new Uint8Array(63) }))).toBe('ERR_KEY_TOO_SHORT');
    expect(codeOfSync(() => createSigner({ alg: 'HS384', key: { kty: 'oct', k: 'AAAA' } }))).toBe('ERR_KEY_TOO_SHORT');
  });

  it('RSA below 2048 bits: ERR_KEY_TOO_SHORT (JWK and CryptoKey)', async () => {
    const pair = await generate('RS256', { modulusLength: 1024 });
    expect(codeOfSync(() => createSigner({ alg: 'RS256', key: pair.privateKey }))).toBe('ERR_KEY_TOO_SHORT');
    const jwk = await privateJwk(pair);
    expect(codeOfSync(() => createSigner({ alg: 'RS256', key: jwk }))).toBe('ERR_KEY_TOO_SHORT');
  });

  it(
    'RSA signing keys with e = 1, an even e or an even modulus are refused like verify keys (rsa-params): ' +
      'ERR_KEY_INVALID (KeyObject: test/node/sign-node-keys.test.ts)',
    async () => {
      const jwk = (await privateJwk(await generate('RS256'))) as PrivateJWK & { n: string; e: string };
      const evenN = (n: string) => {
        const bytes = unb64u(n);
        bytes[bytes.length - 1]! &= 0xfe;
        return b64u(bytes);
      };
      for (const bad of [{ e: 'AQ' }, { e: 'AAE' }, { e: 'Ag' }, { n: evenN(jwk.n) }]) {
        expect(codeOfSync(() => createSigner({ alg: 'RS256', key: { ...jwk, ...bad } }))).toBe('ERR_KEY_INVALID');
      }
    },
  );

  it('public keys, wrong curves, wrong kty, encryption keys and mismatched JWK alg are refused', async () => {
    const es = await generate('ES256');
    const jwk = await privateJwk(es);
    expect(codeOfSync(() => createSigner({ alg: 'ES256', key: es.publicJwk as PrivateJWK }))).toBe('ERR_KEY_INVALID');
    expect(codeOfSync(() => createSigner({ alg: 'ES256', key: es.publicKey }))).toBe('ERR_KEY_INVALID');
    expect(codeOfSync(() => createSigner({ alg: 'ES384', key: jwk }))).toBe('ERR_KEY_ALG_MISMATCH');
    expect(codeOfSync(() => createSigner({ alg: 'ES384', key: es.privateKey }))).toBe('ERR_KEY_ALG_MISMATCH');
    expect(codeOfSync(() => createSigner({ alg: 'RS256', key: jwk }))).toBe('ERR_KEY_ALG_MISMATCH');
    expect(codeOfSync(() => createSigner({ alg: 'ES256', key: { ...jwk, use: 'enc' } }))).toBe('ERR_KEY_INVALID');
    expect(codeOfSync(() => createSigner({ alg: 'ES256', key: { ...jwk, key_ops: ['verify'] } }))).toBe(
      'ERR_KEY_INVALID',
    );
    expect(codeOfSync(() => createSigner({ alg: 'ES256', key: { ...jwk, alg: 'ES384' } }))).toBe(
      'ERR_KEY_ALG_MISMATCH',
    );
    expect(codeOfSync(() => createSigner({ alg: 'ES256', key: new Uint8Array(32) }))).toBe('ERR_KEY_ALG_MISMATCH');
    expect(codeOfSync(() => createSigner({ alg: 'HS256', key: jwk }))).toBe('ERR_KEY_ALG_MISMATCH');
  });

  it('a broken private JWK fails at creation or at the first sign, with ERR_KEY_INVALID', async () => {
    const ed = await generate('EdDSA');
    const jwk = await privateJwk(ed);
    expect(codeOfSync(() => createSigner({ alg: 'EdDSA', key: { ...jwk, d: 'AAAA' } }))).toBe('ERR_KEY_INVALID');
    const rs = await privateJwk(await generate('RS256'));
    expect(codeOfSync(() => createSigner({ alg: 'RS256', key: { ...rs, qi: '*not base64url*' } }))).toBe(
      'ERR_KEY_INVALID',
    );
    const { p: _p, ...noPrimes } = rs;
    expect(await codeOf(() => createSigner({ alg: 'RS256', key: { ...noPrimes, d: rs.d!.slice(4) } }).sign({}))).toBe(
      'ERR_KEY_INVALID',
    );
  });

  it(
    `PEM strings ` +
      `${SYNC_EVERYWHERE ? 'are read under the node condition' : 'need the node condition (ERR_KEY_INVALID here)'}`,
    () => {
      const pem =
        '-----BEGIN PRIVATE ' +
        'KEY-----\nMC4CAQAwBQYDK2VwBCIEIFmZ0nOMc9bN9tMs2X2XLlIjq7FVhq3PhqIc4sWs3vHS\n-----END PRIVATE KEY-----\n';
      const code = codeOfSync(() => createSigner({ alg: 'EdDSA', key: pem }).signSync({}));
      expect(code).toBe(SYNC_EVERYWHERE ? 'OK' : 'ERR_KEY_INVALID');
    },
  );
});

describe('sign_key_public_part_matches_private', () => {
  // A private JWK whose public members belong to another key is refused, whatever the
  // backend's importer makes of it (node:crypto takes EC x,y as given): at creation
  // where the backend is synchronous, else at the first sign. ERR_KEY_INVALID either way.
  const refusal = async (alg: Algorithm, key: PrivateJWK): Promise<string> => {
    const made = codeOfSync(() => createSigner({ alg, key }));
    return made !== 'OK' ? made : codeOf(() => createSigner({ alg, key }).sign({ n: 1 }));
  };

  for (const [alg, members] of [
    ['ES256', ['x', 'y']],
    ['ES384', ['x', 'y']],
    ['ES512', ['x', 'y']],
    ['EdDSA', ['x']],
    ['RS256', ['n']],
    ['PS256', ['n', 'e']],
  ] as const) {
    it(`${alg}: public ${members.join(',')} of another key refused; the matching pair signs`, async () => {
      const mine = await privateJwk(await generate(alg));
      const other = (await generate(alg)).publicJwk as Record<string, string>;
      const swapped = { ...mine, ...Object.fromEntries(members.map((m) => [m, other[m]!])) } as PrivateJWK;
      expect(await refusal(alg, swapped)).toBe('ERR_KEY_INVALID');
      expect(await refusal(alg, mine)).toBe('OK');
    });
  }

  it('an EC private JWK whose public point is off the curve: ERR_KEY_INVALID when the signer is made', async () => {
    for (const alg of ['ES256', 'ES384', 'ES512'] as const) {
      const jwk = await privateJwk(await generate(alg));
      const y = unb64u(jwk.y!);
      y[y.length - 1]! ^= 1;
      expect(
        codeOfSync(() => createSigner({ alg, key: { ...jwk, y: b64u(y) } })),
        alg,
      ).toBe('ERR_KEY_INVALID');
    }
  });
});
