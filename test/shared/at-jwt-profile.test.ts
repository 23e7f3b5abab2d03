// The `profile: 'at+jwt'` option (RFC 9068, JWT access tokens) through createVerifier:
// the header typ, the seven claims of §2.2, the settings it needs, and per issuer.
import { describe, expect, it } from 'vitest';
import { createVerifier, type VerifierOptions } from '../../src/index.js';
import { NOW, codeOf, codeOfSync, mint, nowDate } from './jwt-mint.js';

const secret = new Uint8Array(32).fill(7);
const hsPair = { alg: 'HS256', privateKey: undefined as unknown as CryptoKey };
const ISS = 'https://as.example';

async function token(
  payload: Record<string, unknown>,
  header: Record<string, unknown> = { typ: 'at+jwt' },
): Promise<string> {
  hsPair.privateKey ??= await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return mint(hsPair, payload, header);
}

/** An RFC 9068 §2.2 claims set, changed by `extra` (undefined removes a claim). */
function accessClaims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const c: Record<string, unknown> = {
    iss: ISS,
    sub: 'user-1',
    aud: 'https://rs.example',
    client_id: 'client-1',
    iat: NOW - 10,
    exp: NOW + 600,
    jti: 'j-1',
    ...extra,
  };
  for (const [k, v] of Object.entries(c)) if (v === undefined) delete c[k];
  return c;
}

const verifier = (extra: Record<string, unknown> = {}) =>
  createVerifier({
    algorithms: ['HS256'],
    key: secret,
    issuer: ISS,
    audience: 'https://rs.example',
    profile: 'at+jwt',
    currentDate: nowDate,
    cache: false,
    ...extra,
  } as VerifierOptions);

describe("profile: 'at+jwt' (RFC 9068)", () => {
  it('accepts a token with typ at+jwt (or application/at+jwt, in any case) and the seven claims', async () => {
    for (const typ of ['at+jwt', 'application/at+jwt', 'AT+JWT', 'Application/AT+jwt']) {
      const t = await token(accessClaims(), { typ });
      expect(verifier().verifySync(t).payload.client_id).toBe('client-1');
    }
  });

  it(
    'at_jwt_profile_typ_required: refuses a token whose typ is missing or another type ' +
      '(ERR_JWT_PROFILE_MISMATCH, claim typ)',
    async () => {
      for (const header of [
        {},
        { typ: 'JWT' },
        { typ: 'jwt' },
        { typ: 'dpop+jwt' },
        { typ: 'application/jwt' },
        { typ: 'at+jwt+x' },
        { typ: 'x/at+jwt' },
      ]) {
        const t = await token(accessClaims(), header);
        const err = await verifier()
          .verify(t)
          .catch((e: unknown) => e);
        expect(err, JSON.stringify(header)).toMatchObject({ code: 'ERR_JWT_PROFILE_MISMATCH', claim: 'typ' });
      }
      // Without the profile the same tokens pass: it is the profile that refuses them.
      expect(
        await codeOf(async () => verifier({ profile: undefined }).verify(await token(accessClaims(), { typ: 'JWT' }))),
      ).toBe('OK');
    },
  );

  it(
    'at_jwt_profile_claims_required: each of iss, exp, aud, sub, client_id, iat, jti missing is refused, naming ' +
      'it',
    async () => {
      for (const name of ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti']) {
        const t = await token(accessClaims({ [name]: undefined }));
        const err = await verifier()
          .verify(t)
          .catch((e: unknown) => e);
        expect(err, name).toMatchObject({ code: 'ERR_JWT_PROFILE_MISMATCH', claim: name });
      }
    },
  );

  it('refuses string claims of another JSON type, and still runs the usual checks', async () => {
    for (const [name, value] of [
      ['sub', 5],
      ['client_id', ['c']],
      ['jti', null],
      ['iss', {}],
    ] as const) {
      const err = await verifier()
        .verify(await token(accessClaims({ [name]: value })))
        .catch((e: unknown) => e);
      expect(err, name).toMatchObject({ code: 'ERR_JWT_PROFILE_MISMATCH', claim: name });
    }
    expect(await codeOf(async () => verifier().verify(await token(accessClaims({ exp: NOW - 1 }))))).toBe(
      'ERR_JWT_EXPIRED',
    );
    expect(
      await codeOf(async () => verifier().verify(await token(accessClaims({ aud: 'https://other.example' })))),
    ).toBe('ERR_JWT_CLAIM_INVALID');
    expect(
      await codeOf(async () => verifier().verify(await token(accessClaims({ iss: 'https://other.example' })))),
    ).toBe('ERR_JWT_CLAIM_INVALID');
    expect(await codeOf(async () => verifier().verify(await token(accessClaims({ iat: 'yesterday' }))))).toBe(
      'ERR_JWT_CLAIM_INVALID',
    );
  });

  it('needs issuer and audience, keeps exp required, and fixes typ (ERR_OPTIONS_INVALID naming the setting)', () => {
    const setting = (extra: Record<string, unknown>) => {
      try {
        verifier(extra);
        return 'OK';
      } catch (e) {
        return `${(e as { code?: string }).code}:${(e as { setting?: string }).setting}`;
      }
    };
    expect(setting({ issuer: undefined })).toBe('ERR_OPTIONS_INVALID:issuer');
    expect(setting({ audience: undefined })).toBe('ERR_OPTIONS_INVALID:audience');
    expect(setting({ requireExp: false })).toBe('ERR_OPTIONS_INVALID:requireExp');
    expect(setting({ typ: 'JWT' })).toBe('ERR_OPTIONS_INVALID:typ');
    expect(setting({ typ: 'application/AT+JWT' })).toBe('OK');
    expect(setting({ profile: 'at-jwt' })).toBe('ERR_OPTIONS_INVALID:profile');
    expect(setting({ profile: 'AT+JWT' })).toBe('ERR_OPTIONS_INVALID:profile');
  });

  it('works per issuer, and as a default for every issuer entry', async () => {
    const other = 'https://idp.example';
    const entries = [
      { issuer: ISS, algorithms: ['HS256'], key: secret, profile: 'at+jwt' },
      { issuer: other, algorithms: ['HS256'], key: secret },
    ];
    const v = createVerifier({
      issuers: entries,
      audience: 'https://rs.example',
      currentDate: nowDate,
      cache: false,
    } as VerifierOptions);
    const plain = await token(accessClaims({ iss: other, client_id: undefined }), { typ: 'JWT' });
    expect(await codeOf(() => v.verify(plain))).toBe('OK');
    const profiled = await token(accessClaims({ client_id: undefined }));
    expect(await codeOf(() => v.verify(profiled))).toBe('ERR_JWT_PROFILE_MISMATCH');
    // As a shared default, every entry holds to it.
    const all = createVerifier({
      issuers: entries.map(({ profile: _p, ...e }) => e),
      profile: 'at+jwt',
      audience: 'https://rs.example',
      currentDate: nowDate,
      cache: false,
    } as VerifierOptions);
    expect(await codeOf(() => all.verify(plain))).toBe('ERR_JWT_PROFILE_MISMATCH');
    expect(await codeOf(async () => all.verify(await token(accessClaims({ iss: other }))))).toBe('OK');
    // An entry without an audience anywhere cannot take the profile.
    expect(codeOfSync(() => createVerifier({ issuers: entries, currentDate: nowDate } as VerifierOptions))).toBe(
      'ERR_OPTIONS_INVALID',
    );
  });

  it('holds on the verify cache: a refused token is never cached as accepted', async () => {
    const v = verifier({ cache: true });
    const t = await token(accessClaims({ jti: undefined }));
    for (let i = 0; i < 3; i++) expect(await codeOf(() => v.verify(t))).toBe('ERR_JWT_PROFILE_MISMATCH');
  });
});
