// Claim checks and multiple issuers through the public API.
import { describe, expect, it } from 'vitest';
import { createVerifier, type JWK } from '../../src/index.js';
import { NOW, claims, codeOf, codeOfSync, generate, mint, nowDate } from './jwt-mint.js';

const secret = new Uint8Array(32).fill(3);
const hsPair = { alg: 'HS256', privateKey: undefined as unknown as CryptoKey };

async function token(payload: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  hsPair.privateKey ??= await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return mint(hsPair, payload, header);
}

const at = (seconds: number) => new Date(seconds * 1000);
const v = (extra: Record<string, unknown> = {}) =>
  createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, cache: false, ...extra });

describe('time claims', () => {
  it('exp: valid until exp, expired at exp; clockTolerance extends it', async () => {
    const t = await token(claims({ exp: NOW + 10 }));
    expect(codeOfSync(() => v({ currentDate: at(NOW + 9) }).verifySync(t))).toBe('OK');
    expect(codeOfSync(() => v({ currentDate: at(NOW + 10) }).verifySync(t))).toBe('ERR_JWT_EXPIRED');
    expect(codeOfSync(() => v({ currentDate: at(NOW + 14), clockTolerance: 5 }).verifySync(t))).toBe('OK');
    expect(codeOfSync(() => v({ currentDate: at(NOW + 15), clockTolerance: 5 }).verifySync(t))).toBe('ERR_JWT_EXPIRED');
  });
  it('exp is required by default; requireExp: false lifts that', async () => {
    const c = claims();
    delete c.exp;
    const t = await token(c);
    const err = await v()
      .verify(t)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ERR_JWT_CLAIM_INVALID', claim: 'exp' });
    expect(codeOfSync(() => v({ requireExp: false }).verifySync(t))).toBe('OK');
  });
  it('nbf: not yet valid before nbf, with tolerance', async () => {
    const t = await token(claims({ nbf: NOW + 10 }));
    expect(codeOfSync(() => v().verifySync(t))).toBe('ERR_JWT_NOT_YET_VALID');
    expect(codeOfSync(() => v({ clockTolerance: 10 }).verifySync(t))).toBe('OK');
    expect(codeOfSync(() => v({ currentDate: at(NOW + 10) }).verifySync(t))).toBe('OK');
  });
  it('maxTokenAge: needs iat, rejects old and future tokens', async () => {
    const t = await token(claims({ iat: NOW - 100 }));
    expect(codeOfSync(() => v({ maxTokenAge: 101 }).verifySync(t))).toBe('OK');
    expect(codeOfSync(() => v({ maxTokenAge: 99 }).verifySync(t))).toBe('ERR_JWT_EXPIRED');
    const future = await token(claims({ iat: NOW + 100 }));
    expect(codeOfSync(() => v({ maxTokenAge: 1000 }).verifySync(future))).toBe('ERR_JWT_CLAIM_INVALID');
    const c = claims();
    delete c.iat;
    const noIat = await token(c);
    expect(codeOfSync(() => v({ maxTokenAge: 1000 }).verifySync(noIat))).toBe('ERR_JWT_CLAIM_INVALID');
    expect(codeOfSync(() => v().verifySync(noIat))).toBe('OK');
  });
});

describe('max_token_age_refused_at_boundary', () => {
  it(
    'iat + maxTokenAge is an expiry like exp: accepted ' + 'before it, refused at it (and with clockTolerance alike)',
    async () => {
      const t = await token(claims({ iat: NOW, exp: NOW + 1000 }));
      expect(codeOfSync(() => v({ maxTokenAge: 60, currentDate: at(NOW + 59.999) }).verifySync(t))).toBe('OK');
      expect(codeOfSync(() => v({ maxTokenAge: 60, currentDate: at(NOW + 60) }).verifySync(t))).toBe('ERR_JWT_EXPIRED');
      expect(
        codeOfSync(() => v({ maxTokenAge: 60, clockTolerance: 5, currentDate: at(NOW + 64.999) }).verifySync(t)),
      ).toBe('OK');
      expect(codeOfSync(() => v({ maxTokenAge: 60, clockTolerance: 5, currentDate: at(NOW + 65) }).verifySync(t))).toBe(
        'ERR_JWT_EXPIRED',
      );
      // The same boundary as exp's: a token whose exp is iat + 60 is refused at the same instant.
      const e = await token(claims({ iat: NOW, exp: NOW + 60 }));
      expect(codeOfSync(() => v({ currentDate: at(NOW + 60) }).verifySync(e))).toBe('ERR_JWT_EXPIRED');
    },
  );
});

describe('identity claims', () => {
  it('issuer: string or list', async () => {
    const t = await token(claims());
    expect(codeOfSync(() => v({ issuer: 'https://issuer.example' }).verifySync(t))).toBe('OK');
    expect(codeOfSync(() => v({ issuer: ['a', 'https://issuer.example'] }).verifySync(t))).toBe('OK');
    expect(codeOfSync(() => v({ issuer: 'https://other.example' }).verifySync(t))).toBe('ERR_JWT_CLAIM_INVALID');
    const numeric = await token(claims({ iss: 42 }));
    expect(codeOfSync(() => v({ issuer: '42' }).verifySync(numeric))).toBe('ERR_JWT_CLAIM_INVALID');
  });
  it('audience: string or array on either side', async () => {
    const one = await token(claims({ aud: 'api' }));
    const many = await token(claims({ aud: ['web', 'api'] }));
    const bad = await token(claims({ aud: ['web', 7] }));
    expect(codeOfSync(() => v({ audience: 'api' }).verifySync(one))).toBe('OK');
    expect(codeOfSync(() => v({ audience: ['x', 'api'] }).verifySync(many))).toBe('OK');
    expect(codeOfSync(() => v({ audience: 'other' }).verifySync(many))).toBe('ERR_JWT_CLAIM_INVALID');
    expect(codeOfSync(() => v({ audience: 'api' }).verifySync(bad))).toBe('ERR_JWT_CLAIM_INVALID');
    const empty = await token(claims({ aud: [] }));
    expect(codeOfSync(() => v({ audience: 'api' }).verifySync(empty))).toBe('ERR_JWT_CLAIM_INVALID');
  });
  it('subject and requiredClaims', async () => {
    const t = await token(claims({ scope: 'read' }));
    expect(codeOfSync(() => v({ subject: 'user-1', requiredClaims: ['scope', 'sub'] }).verifySync(t))).toBe('OK');
    expect(codeOfSync(() => v({ subject: 'user-2' }).verifySync(t))).toBe('ERR_JWT_CLAIM_INVALID');
    const err = await v({ requiredClaims: ['jti'] })
      .verify(t)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ERR_JWT_CLAIM_INVALID', claim: 'jti' });
  });
  it('cached results are frozen; without the cache each call owns its result and payload', async () => {
    const t = await token(claims());
    const cached = v({ cache: true }).verifySync(t);
    expect(Object.isFrozen(cached)).toBe(true);
    expect(Object.isFrozen(cached.payload)).toBe(true);
    expect(Object.isFrozen(cached.header)).toBe(true);
    const verifier = v();
    const a = verifier.verifySync(t);
    const b = verifier.verifySync(t);
    expect(Object.isFrozen(a)).toBe(false);
    expect(a.payload).not.toBe(b.payload);
    (a.payload as Record<string, unknown>).sub = 'changed';
    expect(b.payload.sub).toBe('user-1');
    expect(Object.isFrozen(a.header)).toBe(true);
  });
});

describe('options are checked at construction', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['no algorithms', { key: secret }],
    ['empty algorithms', { algorithms: [], key: secret }],
    ['unknown algorithm', { algorithms: ['HS999'], key: secret }],
    ['no key', { algorithms: ['HS256'] }],
    ['key and jwks', { algorithms: ['HS256'], key: secret, jwks: { keys: [] } }],
    ['negative tolerance', { algorithms: ['HS256'], key: secret, clockTolerance: -1 }],
    ['NaN maxTokenAge', { algorithms: ['HS256'], key: secret, maxTokenAge: NaN }],
    ['huge maxTokenLength', { algorithms: ['HS256'], key: secret, maxTokenLength: 1 << 20 }],
    ['empty issuer list', { algorithms: ['HS256'], key: secret, issuer: [] }],
    ['bad cache', { algorithms: ['HS256'], key: secret, cache: { max: -1 } }],
    ['invalid date', { algorithms: ['HS256'], key: secret, currentDate: new Date(NaN) }],
  ];
  for (const [name, o] of bad) {
    it(name, () => {
      expect(codeOfSync(() => createVerifier(o as never))).toBe('ERR_OPTIONS_INVALID');
    });
  }
  it('an algorithm no key fits', () => {
    expect(codeOfSync(() => createVerifier({ algorithms: ['RS256'], key: secret }))).toBe('ERR_KEY_ALG_MISMATCH');
  });
});

describe('multiple issuers', () => {
  it(
    'the unverified iss only selects the policy; the ' + "signature and that policy's claims are then checked",
    async () => {
      const ed = await generate('EdDSA');
      const es = await generate('ES256');
      const verifier = createVerifier({
        currentDate: nowDate,
        clockTolerance: 5,
        issuers: [
          { issuer: 'https://a.example', algorithms: ['EdDSA'], key: ed.publicJwk as JWK, audience: 'api-a' },
          {
            issuer: ['https://b.example', 'https://b2.example'],
            algorithms: ['ES256'],
            jwks: { keys: [{ ...(es.publicJwk as JWK), kid: 'b1' }] },
            audience: 'api-b',
          },
        ],
      });
      const a = await mint(ed, claims({ iss: 'https://a.example', aud: 'api-a' }));
      const b = await mint(es, claims({ iss: 'https://b2.example', aud: 'api-b' }), { kid: 'b1' });
      expect((await verifier.verify(a)).payload.iss).toBe('https://a.example');
      expect(verifier.verifySync(a).payload.aud).toBe('api-a');
      expect((await verifier.verify(b)).payload.iss).toBe('https://b2.example');
      // A's key claiming to be B: B's policy (ES256 only) applies.
      const forged = await mint(ed, claims({ iss: 'https://b.example', aud: 'api-b' }));
      expect(await codeOf(() => verifier.verify(forged))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
      // B's key, B's iss, A's audience: B's audience rule applies.
      const wrongAud = await mint(es, claims({ iss: 'https://b.example', aud: 'api-a' }), { kid: 'b1' });
      expect(await codeOf(() => verifier.verify(wrongAud))).toBe('ERR_JWT_CLAIM_INVALID');
      const unknown = await mint(ed, claims({ iss: 'https://c.example' }));
      expect(await codeOf(() => verifier.verify(unknown))).toBe('ERR_JWKS_NO_MATCHING_KEY');
      const noIss = await mint(ed, { exp: NOW + 60 });
      expect(await codeOf(() => verifier.verify(noIss))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    },
  );
  it('rejects ambiguous configuration', () => {
    const k = { algorithms: ['HS256'] as const, key: secret };
    expect(
      codeOfSync(() =>
        createVerifier({
          issuers: [
            { ...k, issuer: 'x' },
            { ...k, issuer: 'x' },
          ],
        }),
      ),
    ).toBe('ERR_OPTIONS_INVALID');
    expect(codeOfSync(() => createVerifier({ issuers: [{ ...k } as never] }))).toBe('ERR_OPTIONS_INVALID');
    // @ts-expect-error key beside issuers: a type error, and from JavaScript an options error
    expect(codeOfSync(() => createVerifier({ key: secret, issuers: [{ ...k, issuer: 'x' }] }))).toBe(
      'ERR_OPTIONS_INVALID',
    );
  });
});

describe('typ_application_prefix_only_without_another_slash', () => {
  it(
    'typ_application_prefix_only_without_another_slash: `application/` is optional only for a value with no ' +
      'other `/` (RFC 7515 §4.1.9)',
    async () => {
      const with_ = (typ: string) => token(claims(), { typ });
      // The short form and the long form are one type.
      expect(await codeOf(async () => v({ typ: 'at+jwt' }).verify(await with_('application/AT+JWT')))).toBe('OK');
      expect(await codeOf(async () => v({ typ: 'application/at+jwt' }).verify(await with_('at+jwt')))).toBe('OK');
      // A value with a `/` of its own is a full media type: `application/example/jwt` is not `example/jwt`.
      expect(await codeOf(async () => v({ typ: 'application/example/jwt' }).verify(await with_('example/jwt')))).toBe(
        'ERR_JWT_CLAIM_INVALID',
      );
      expect(await codeOf(async () => v({ typ: 'example/jwt' }).verify(await with_('application/example/jwt')))).toBe(
        'ERR_JWT_CLAIM_INVALID',
      );
      expect(await codeOf(async () => v({ typ: 'example/jwt' }).verify(await with_('Example/JWT')))).toBe('OK');
      expect(
        await codeOf(async () => v({ typ: 'application/example/jwt' }).verify(await with_('APPLICATION/example/jwt'))),
      ).toBe('OK');
    },
  );
});
