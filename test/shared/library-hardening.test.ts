// Regression tests for the library defects of the hardening review (issue 11),
// each named after the defect: weak RSA parameters, explicit `undefined` and
// unknown option names, inherited claim names, and cached results one caller
// could change for the next.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createLocalJWKSet, createRemoteJWKSet, createSigner, createVerifier, type JWK } from '../../src/index.js';
import { jwtAuth } from '../../src/hono/index.js';
import { NOW, b64u, claims, codeOf, codeOfSync, generate, prepareCodes, mint, nowDate, unb64u } from './jwt-mint.js';

const secret = new Uint8Array(32).fill(9);
let hsKey: CryptoKey | undefined;
async function hs(payload: Record<string, unknown> | string, header: Record<string, unknown> = {}): Promise<string> {
  hsKey ??= await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return mint({ alg: 'HS256', privateKey: hsKey }, payload, header);
}

// DER prefix of DigestInfo for SHA-256 (RFC 8017 §9.2, note 1).
const SHA256_DIGEST_INFO = '3031300d060960864801650304020105000420';

/** An RS256 "signature" that holds under e = 1: the EMSA-PKCS1-v1_5 encoding of the hash itself. */
async function forgedForExponentOne(payload: Record<string, unknown>, modulusBytes: number): Promise<string> {
  const input = `${b64u(JSON.stringify({ alg: 'RS256' }))}.${b64u(JSON.stringify(payload))}`;
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(input)));
  const info = new Uint8Array(SHA256_DIGEST_INFO.match(/../g)!.map((h) => parseInt(h, 16)));
  const em = new Uint8Array(modulusBytes).fill(0xff);
  em[0] = 0;
  em[1] = 1;
  const t = new Uint8Array([...info, ...hash]);
  em[modulusBytes - t.length - 1] = 0;
  em.set(t, modulusBytes - t.length);
  return `${input}.${b64u(em)}`;
}

describe('rsa_weak_params_refused', () => {
  it('e = 1: the forged token does not verify, and the key is refused before its import', async () => {
    const { publicJwk } = await generate('RS256');
    const weak = { kty: 'RSA', n: publicJwk.n!, e: 'AQ' } as JWK;
    const forged = await forgedForExponentOne(claims(), unb64u(weak.n!).length);
    // Refused when configured as the key: by prepare, and by the first verify (before any backend import)...
    const asKey = createVerifier({ algorithms: ['RS256'], key: weak, currentDate: nowDate });
    expect(await codeOf(() => asKey.verify(forged))).toBe('ERR_KEY_INVALID');
    expect(await prepareCodes(asKey)).toEqual(['ERR_KEY_INVALID']);
    // ...and left out of a key set, so the forgery finds no key.
    const v = createVerifier({ algorithms: ['RS256'], jwks: { keys: [weak] }, currentDate: nowDate });
    expect(await codeOf(() => v.verify(forged))).toBe('ERR_JWKS_NO_MATCHING_KEY');
  });

  const variants: [string, (n: string) => JWK][] = [
    ['e = 1', (n) => ({ kty: 'RSA', n, e: 'AQ' })],
    ['e = 1 with a leading zero byte', (n) => ({ kty: 'RSA', n, e: b64u(new Uint8Array([0, 1])) })],
    ['e = 2', (n) => ({ kty: 'RSA', n, e: 'Ag' })],
    ['e = 65536 (even)', (n) => ({ kty: 'RSA', n, e: b64u(new Uint8Array([1, 0, 0])) })],
    [
      'even modulus',
      (n) => {
        const bytes = unb64u(n);
        bytes[bytes.length - 1]! &= 0xfe;
        return { kty: 'RSA', n: b64u(bytes), e: 'AQAB' };
      },
    ],
  ];
  for (const [name, make] of variants) {
    it(`${name}: ERR_KEY_INVALID as a key (at its first verify, or prepare); skipped in a local set`, async () => {
      const { publicJwk } = await generate('RS256');
      const jwk = make(publicJwk.n!);
      const token = `${b64u('{"alg":"RS256"}')}.${b64u(JSON.stringify(claims()))}.${b64u(new Uint8Array(256))}`;
      const asKey = createVerifier({ algorithms: ['RS256'], key: jwk, currentDate: nowDate });
      expect(await codeOf(() => asKey.verify(token))).toBe('ERR_KEY_INVALID');
      expect(await prepareCodes(asKey)).toEqual(['ERR_KEY_INVALID']);
      const set = createLocalJWKSet({ keys: [jwk] });
      const v = createVerifier({ algorithms: ['RS256'], jwks: set, currentDate: nowDate });
      expect(await codeOf(() => v.verify(token))).toBe('ERR_JWKS_NO_MATCHING_KEY');
      // prepare reports the key the set passes over.
      expect(await prepareCodes(v)).toEqual(['ERR_KEY_INVALID']);
    });
  }

  it('a CryptoKey with e = 1 is refused (when the runtime imports one at all)', async () => {
    const { publicJwk } = await generate('RS256');
    let key: CryptoKey;
    try {
      key = await crypto.subtle.importKey(
        'jwk',
        { kty: 'RSA', n: publicJwk.n, e: 'AQ', ext: true },
        { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
        true,
        ['verify'],
      );
    } catch {
      // This runtime refuses the key itself: nothing to defend.
      return;
    }
    const forged = await forgedForExponentOne(claims(), unb64u(publicJwk.n!).length);
    const outcome = await codeOf(async () =>
      createVerifier({ algorithms: ['RS256'], key, currentDate: nowDate }).verify(forged),
    );
    expect(outcome).toBe('ERR_KEY_INVALID');
  });

  it('a CryptoKey with an even modulus is refused on import by the backend', async () => {
    const { publicJwk } = await generate('RS256');
    const n = unb64u(publicJwk.n!);
    n[n.length - 1]! &= 0xfe;
    let key: CryptoKey;
    try {
      key = await crypto.subtle.importKey(
        'jwk',
        { kty: 'RSA', n: b64u(n), e: 'AQAB', ext: true },
        { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
        true,
        ['verify'],
      );
    } catch {
      return;
    }
    const t = `${b64u('{"alg":"RS256"}')}.${b64u(JSON.stringify(claims()))}.${b64u(new Uint8Array(256))}`;
    expect(
      await codeOf(async () => createVerifier({ algorithms: ['RS256'], key, currentDate: nowDate }).verify(t)),
    ).toBe('ERR_KEY_INVALID');
  });

  it('a normal key (e = 65537) still verifies', async () => {
    const pair = await generate('RS256');
    const v = createVerifier({ algorithms: ['RS256'], key: pair.publicJwk as JWK, currentDate: nowDate });
    expect((await v.verify(await mint(pair, claims()))).payload.sub).toBe('user-1');
  });
});

describe('options_undefined_is_absent', () => {
  it('an issuer entry with audience: undefined keeps the shared audience', async () => {
    const v = createVerifier({
      audience: 'api',
      currentDate: nowDate,
      issuers: [{ issuer: 'https://issuer.example', algorithms: ['HS256'], key: secret, audience: undefined }],
    });
    const t = await hs(claims({ aud: 'other-api' }));
    expect(await codeOf(() => v.verify(t))).toBe('ERR_JWT_CLAIM_INVALID');
    expect((await v.verify(await hs(claims()))).payload.aud).toBe('api');
  });

  it('every shared default survives an explicit undefined in the entry', async () => {
    const v = createVerifier({
      subject: 'user-1',
      typ: 'at+jwt',
      requiredClaims: ['tenant'],
      currentDate: nowDate,
      issuers: [
        {
          issuer: 'https://issuer.example',
          algorithms: ['HS256'],
          key: secret,
          subject: undefined,
          typ: undefined,
          requiredClaims: undefined,
        },
      ],
    });
    expect(await codeOf(async () => v.verify(await hs(claims({ tenant: 'a' }), { typ: 'JWT' })))).toBe(
      'ERR_JWT_CLAIM_INVALID',
    );
    expect(await codeOf(async () => v.verify(await hs(claims(), { typ: 'at+jwt' })))).toBe('ERR_JWT_CLAIM_INVALID');
    expect(await codeOf(async () => v.verify(await hs(claims({ tenant: 'a', sub: 'x' }), { typ: 'at+jwt' })))).toBe(
      'ERR_JWT_CLAIM_INVALID',
    );
    expect(await codeOf(async () => v.verify(await hs(claims({ tenant: 'a' }), { typ: 'at+jwt' })))).toBe('OK');
  });
});

describe('options_unknown_name_refused', () => {
  const settingOf = (fn: () => unknown): string | undefined => {
    try {
      fn();
      return 'OK';
    } catch (e) {
      const err = e as { code?: string; setting?: string };
      return err.code === 'ERR_OPTIONS_INVALID' ? err.setting : `other: ${String(e)}`;
    }
  };
  const base = { algorithms: ['HS256'] as const, key: secret };

  it('names the misspelt setting, wherever it is', () => {
    expect(settingOf(() => createVerifier({ ...base, audiance: 'api' } as never))).toBe('audiance');
    expect(settingOf(() => createVerifier({ ...base, cache: { max: 10, tll: 5 } } as never))).toBe('cache.tll');
    expect(
      settingOf(() =>
        createVerifier({
          issuers: [
            { issuer: 'a', ...base },
            { issuer: 'b', ...base, isuer: 'c' },
          ],
        } as never),
      ),
    ).toBe('issuers[1].isuer');
    expect(settingOf(() => createLocalJWKSet({ keys: [] }, { allowHMAC: true } as never))).toBe('allowHMAC');
    expect(settingOf(() => createRemoteJWKSet('https://id.example/jwks', { timeout: 5 } as never))).toBe('timeout');
    expect(settingOf(() => jwtAuth({ ...base, scope: ['read'] } as never))).toBe('scope');
    expect(settingOf(() => jwtAuth({ ...base, audiance: 'api' } as never))).toBe('audiance');
  });

  it('every documented name is accepted', () => {
    expect(
      settingOf(() =>
        createVerifier({
          ...base,
          issuer: 'i',
          audience: 'a',
          subject: 's',
          typ: 'JWT',
          clockTolerance: 1,
          maxTokenAge: 60,
          requiredClaims: ['x'],
          requireExp: true,
          maxTokenLength: 4096,
          currentDate: nowDate,
          cache: { max: 1, ttl: 1 },
          rawPayload: false,
        }),
      ),
    ).toBe('OK');
    expect(
      settingOf(() => jwtAuth({ ...base, cookie: 'c', realm: 'r', scopes: ['s'], retryAfter: 5, optional: true })),
    ).toBe('OK');
    expect(
      settingOf(() =>
        createRemoteJWKSet('https://id.example/jwks', {
          timeoutDuration: 1,
          cooldownDuration: 1,
          cacheMaxAge: 1,
          cacheMinAge: 1,
          staleDuration: 1,
          maxSize: 1,
          allowHmac: false,
          headers: {},
          now: Date.now,
        }),
      ),
    ).toBe('OK');
  });
});

describe('options_unknown_name_refused_hono_lazy', () => {
  it(
    'options made from c.env are checked too: the first request fails naming the setting, never verifies ' +
      'without the check',
    async () => {
      const app = new Hono();
      const errors: unknown[] = [];
      app.onError((err, c) => {
        errors.push(err);
        return c.text('config', 500);
      });
      // With a shared `verifier` no verifier is built from the options, so only the name check can see
      // `scope` (for `scopes`): without it the scope check is silently off and the request gets a 200.
      const verifier = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate });
      app.use(jwtAuth(() => ({ verifier, scope: ['admin'] }) as never));
      app.get('/', (c) => c.text('ok'));
      // The middleware logs one line (to console.error by default): collected here, restored after.
      const original = console.error;
      let lines = 0;
      console.error = () => void lines++;
      let res: Response;
      try {
        res = await app.request(
          'http://x/',
          { headers: { authorization: `Bearer ${await hs(claims({ scope: 'read' }))}` } },
          {},
        );
      } finally {
        console.error = original;
      }
      expect(res.status).toBe(500);
      expect(lines).toBe(1);
      expect(errors).toHaveLength(1);
      // A 500 of the middleware's own (kind server_error: the deployment's fault), the JwtError as its cause.
      expect(errors[0]).toMatchObject({ status: 500, kind: 'server_error' });
      expect((errors[0] as Error).cause).toMatchObject({ code: 'ERR_OPTIONS_INVALID', setting: 'scope' });
    },
  );
});

describe('required_claims_own_only', () => {
  for (const name of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
    it(`requiredClaims: ['${name}'] is not satisfied by an inherited name`, async () => {
      const v = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, requiredClaims: [name] });
      expect(await codeOf(async () => v.verify(await hs(claims())))).toBe('ERR_JWT_CLAIM_INVALID');
    });
  }

  it('a claim the payload carries itself satisfies it', async () => {
    const v = createVerifier({
      algorithms: ['HS256'],
      key: secret,
      currentDate: nowDate,
      requiredClaims: ['toString'],
    });
    expect(await codeOf(async () => v.verify(await hs(claims({ toString: 'x' }))))).toBe('OK');
  });

  it('subject: an inherited name never matches', async () => {
    const v = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, subject: 'user-1' });
    const { sub: _, ...noSub } = claims();
    expect(await codeOf(async () => v.verify(await hs(noSub)))).toBe('ERR_JWT_CLAIM_INVALID');
  });
});

describe('cached_result_deeply_frozen', () => {
  const nested = claims({ roles: ['user'], org: { id: 'o1', teams: [{ name: 't' }] } });

  it('one caller cannot change what the next caller of the same token sees', async () => {
    const v = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate });
    const t = await hs(nested);
    const first = await v.verify<{ roles: string[]; org: { id: string; teams: { name: string }[] } }>(t);
    expect(() => first.payload.roles.push('admin')).toThrow(TypeError);
    expect(() => {
      first.payload.org.id = 'o2';
    }).toThrow(TypeError);
    expect(() => {
      first.payload.org.teams[0]!.name = 'admins';
    }).toThrow(TypeError);
    const second = await v.verify<{ roles: string[]; org: { id: string } }>(t);
    expect(second.payload.roles).toEqual(['user']);
    expect(second.payload.org.id).toBe('o1');
  });

  it('parsed headers (shared by every verifier in the module) are frozen all the way down', async () => {
    const t = await hs(claims(), { x5t: 'a', ext: { list: [1, 2] } });
    const a = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, cache: false });
    const h = (await a.verify(t)).header as unknown as { ext: { list: number[] } };
    expect(() => h.ext.list.push(3)).toThrow(TypeError);
    const b = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate });
    expect(((await b.verify(t)).header as unknown as { ext: { list: number[] } }).ext.list).toEqual([1, 2]);
  });

  it('with cache: false the caller owns (and may change) its payload', async () => {
    const v = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, cache: false });
    const t = await hs(nested);
    const mine = (await v.verify<{ roles: string[] }>(t)).payload;
    mine.roles.push('admin');
    expect((await v.verify<{ roles: string[] }>(t)).payload.roles).toEqual(['user']);
  });

  it('a deeply nested payload is frozen without exhausting the stack', async () => {
    const depth = 3000;
    const text = `{"exp":${NOW + 60},"d":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const v = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, maxTokenLength: 65536 });
    const r = await v.verify(await hs(text));
    expect(Object.isFrozen((r.payload as { d: unknown[] }).d)).toBe(true);
  });
});

describe('ecdsa_malleability_documented (SECURITY.md: never key a deny-list on the token string)', () => {
  // The order of P-256 (SEC 2, secp256r1).
  const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
  const toBig = (b: Uint8Array) => b.reduce((acc, x) => (acc << 8n) | BigInt(x), 0n);
  const toBytes = (v: bigint, len: number) =>
    Uint8Array.from({ length: len }, (_, i) => Number((v >> BigInt(8 * (len - 1 - i))) & 0xffn));

  it('(r, n - s) is a second valid ES256 token string for the same claims', async () => {
    const pair = await generate('ES256');
    const t = await mint(pair, claims({ jti: 'once' }));
    const [h, p, sig] = t.split('.') as [string, string, string];
    const rs = unb64u(sig);
    const twin = `${h}.${p}.${b64u(new Uint8Array([...rs.slice(0, 32), ...toBytes(N - toBig(rs.slice(32)), 32)]))}`;
    expect(twin).not.toBe(t);
    const v = createVerifier({ algorithms: ['ES256'], key: pair.publicJwk as JWK, currentDate: nowDate, cache: false });
    const [a, b] = [await v.verify(t), await v.verify(twin)];
    // Same signer-fixed identity (jti, and the signing input), different strings.
    expect(b.payload.jti).toBe(a.payload.jti);
    expect(twin.slice(0, twin.lastIndexOf('.'))).toBe(t.slice(0, t.lastIndexOf('.')));
  });
});

describe('options_duration_integer', () => {
  const key = new Uint8Array(32).fill(9);
  it(
    'options_duration_integer: every ms or seconds option of the library is a whole number, else ' +
      'ERR_OPTIONS_INVALID naming it',
    () => {
      const settingOf = (fn: () => unknown): string => {
        try {
          fn();
          return 'OK';
        } catch (e) {
          return `${(e as { code?: string }).code}:${(e as { setting?: string }).setting}`;
        }
      };
      // Remote key sets: ms.
      for (const name of [
        'timeoutDuration',
        'cooldownDuration',
        'cacheMaxAge',
        'cacheMinAge',
        'staleDuration',
      ] as const) {
        expect(
          settingOf(() => createRemoteJWKSet('https://issuer.example/jwks', { [name]: 1.5 })),
          name,
        ).toBe(`ERR_OPTIONS_INVALID:${name}`);
        expect(
          settingOf(() => createRemoteJWKSet('https://issuer.example/jwks', { [name]: 1500 })),
          name,
        ).toBe('OK');
      }
      // The verifier: seconds.
      const base = { algorithms: ['HS256' as const], key };
      expect(settingOf(() => createVerifier({ ...base, clockTolerance: 1.5 }))).toBe(
        'ERR_OPTIONS_INVALID:clockTolerance',
      );
      expect(settingOf(() => createVerifier({ ...base, maxTokenAge: 3600.5 }))).toBe('ERR_OPTIONS_INVALID:maxTokenAge');
      expect(settingOf(() => createVerifier({ ...base, cache: { ttl: 0.5 } }))).toBe('ERR_OPTIONS_INVALID:cache.ttl');
      expect(
        settingOf(() => createVerifier({ ...base, clockTolerance: 30, maxTokenAge: 3600, cache: { ttl: 60 } })),
      ).toBe('OK');
      // The signer's durations: seconds.
      const signer = createSigner({ alg: 'HS256', key });
      expect(settingOf(() => signer.signSync({}, { expiresIn: 1.5 }))).toBe('ERR_OPTIONS_INVALID:expiresIn');
      expect(settingOf(() => signer.signSync({}, { notBefore: -0.5 }))).toBe('ERR_OPTIONS_INVALID:notBefore');
      expect(settingOf(() => signer.signSync({}, { expiresIn: 60, notBefore: -5 }))).toBe('OK');
      // The Hono middleware's Retry-After: seconds.
      expect(settingOf(() => jwtAuth({ ...base, retryAfter: 1.5 }))).toBe('ERR_OPTIONS_INVALID:retryAfter');
      expect(settingOf(() => jwtAuth({ ...base, retryAfter: 30 }))).toBe('OK');
    },
  );
});
