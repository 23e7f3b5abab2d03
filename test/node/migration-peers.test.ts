// The migration notes docs/migrate-fast-jwt.md and docs/migrate-jsonwebtoken.md,
// checked against the peers themselves (installed by `npm --prefix bench ci`, as CI
// does): (1) the same token and the options the notes map to each other give the
// same payload in the peer and in edgejwt; (2) every row of "Where edgejwt is
// stricter" holds: the peer accepts, edgejwt refuses with the code the note names,
// and the option the note gives (where it gives one) makes edgejwt accept.
import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SECRET, SECRET_TEXT, STRICTER_TOKENS, hs256, now } from './migration-tokens.js';
import { createSigner, createVerifier, type VerifierOptions } from '../../src/index.js';

const benchPackage = fileURLToPath(new URL('../../bench/package.json', import.meta.url));
const fromBench = createRequire(benchPackage);
function peer(name: string): any {
  if (!existsSync(fileURLToPath(new URL(`../../bench/node_modules/${name}/package.json`, import.meta.url)))) {
    throw new Error(`${name} is not installed: run \`npm --prefix bench ci\` (CI does)`);
  }
  return fromBench(name);
}
const fastJwt = peer('fast-jwt');
const jsonwebtoken = peer('jsonwebtoken');

/** Verifier options beside algorithms and key (a row's, or the option that restores a peer's behaviour). */
type Opts = Record<string, unknown>;
const ours = (options: Opts = {}) =>
  createVerifier({ algorithms: ['HS256'], key: SECRET, cache: false, ...options } as VerifierOptions);
async function ourCode(token: string, options: Opts = {}): Promise<string> {
  try {
    await ours(options).verify(token);
    return 'accepted';
  } catch (e) {
    return (e as { code: string }).code;
  }
}
const fjAccepts = (token: string, options: object = {}) =>
  fastJwt.createVerifier({ key: SECRET_TEXT, algorithms: ['HS256'], ...options })(token);
const jwAccepts = (token: string, options: object = {}) =>
  jsonwebtoken.verify(token, SECRET_TEXT, { algorithms: ['HS256'], ...options });

describe('migration_same_answer', () => {
  it('fast-jwt and edgejwt read the same claims with the options the note maps', async () => {
    const token = createSigner({ alg: 'HS256', key: SECRET }).signSync(
      { sub: 'alice', scope: 'read' },
      { expiresIn: 300, issuer: 'https://auth.example', audience: 'api' },
    );
    const theirs = fastJwt.createVerifier({
      key: SECRET_TEXT,
      algorithms: ['HS256'],
      allowedIss: 'https://auth.example',
      allowedAud: 'api',
      clockTolerance: 30_000,
    })(token);
    const { payload } = await ours({ issuer: 'https://auth.example', audience: 'api', clockTolerance: 30 }).verify(
      token,
    );
    expect(payload).toEqual(theirs);
  });
  it('a fast-jwt signer and an edgejwt signer make tokens both verifiers accept', async () => {
    const fromPeer = fastJwt.createSigner({
      key: SECRET_TEXT,
      algorithm: 'HS256',
      expiresIn: 300_000,
      iss: 'https://auth.example',
    })({ sub: 'bob' });
    expect((await ours({ issuer: 'https://auth.example' }).verify(fromPeer)).payload.sub).toBe('bob');
    const fromUs = createSigner({ alg: 'HS256', key: SECRET }).signSync(
      { sub: 'bob' },
      { expiresIn: 300, issuer: 'https://auth.example' },
    );
    expect(fjAccepts(fromUs, { allowedIss: 'https://auth.example' }).sub).toBe('bob');
  });
  it('jsonwebtoken and edgejwt read the same claims with the options the note maps', async () => {
    const token = jsonwebtoken.sign({ sub: 'carol' }, SECRET_TEXT, {
      algorithm: 'HS256',
      expiresIn: 300,
      issuer: 'https://auth.example',
      audience: 'api',
      keyid: 'k1',
    });
    const theirs = jsonwebtoken.verify(token, SECRET_TEXT, {
      algorithms: ['HS256'],
      issuer: 'https://auth.example',
      audience: 'api',
      clockTolerance: 30,
    });
    const { payload, header } = await ours({
      issuer: 'https://auth.example',
      audience: 'api',
      clockTolerance: 30,
    }).verify(token);
    expect(payload).toEqual(theirs);
    expect(header.kid).toBe('k1');
    const fromUs = createSigner({ alg: 'HS256', key: SECRET, header: { kid: 'k1' } }).signSync(
      { sub: 'carol' },
      { expiresIn: 300 },
    );
    expect(jwAccepts(fromUs).sub).toBe('carol');
  });
});

// One row of a note's "Where edgejwt is stricter" table.
interface Row {
  name: string;
  token: () => string;
  code: string;
  /** Options that make edgejwt accept, where the note names one. */
  restore?: Opts;
  /** Verifier options for the row (both sides). */
  ours?: Opts;
  fastJwt?: object | false;
  jsonwebtoken?: object | false;
}
/** One fixed clock (seconds) for the rows at a time boundary. */
const T = now();
const ROWS: Row[] = [
  { name: 'no exp', token: STRICTER_TOKENS.noExp, code: 'ERR_JWT_CLAIM_INVALID', restore: { requireExp: false } },
  {
    name: 'token over 16 KiB',
    token: STRICTER_TOKENS.over16KiB,
    code: 'ERR_JWT_TOO_LARGE',
    restore: { maxTokenLength: 65_536 },
  },
  { name: 'duplicate header member', token: STRICTER_TOKENS.headerMemberTwice, code: 'ERR_JWS_HEADER_INVALID' },
  {
    name: 'signature with non-zero trailing bits',
    token: STRICTER_TOKENS.nonZeroTrailingBits,
    code: 'ERR_JWT_MALFORMED',
    jsonwebtoken: false,
  },
  {
    name: 'audience configured, token without aud',
    token: () => hs256({ alg: 'HS256' }, { sub: 'a', exp: now() + 60 }),
    ours: { audience: 'api' },
    fastJwt: { allowedAud: 'api' },
    jsonwebtoken: false,
    code: 'ERR_JWT_CLAIM_INVALID',
  },
  {
    name: 'max age configured, token without iat',
    token: () => hs256({ alg: 'HS256' }, { sub: 'a', exp: now() + 60 }),
    ours: { maxTokenAge: 3600 },
    fastJwt: { maxAge: 3_600_000 },
    jsonwebtoken: false,
    code: 'ERR_JWT_CLAIM_INVALID',
  },
  {
    name: 'crit header',
    token: () => hs256({ alg: 'HS256', crit: ['x'], x: 1 }, { sub: 'a', exp: now() + 60 }),
    code: 'ERR_JWS_CRIT_UNSUPPORTED',
    fastJwt: false,
  },
  {
    name: 'payload not a JSON object',
    token: () => hs256({ alg: 'HS256' }, 'hello'),
    code: 'ERR_JWT_PAYLOAD_INVALID',
    restore: { rawPayload: true },
    fastJwt: false,
  },
  { name: 'empty typ', token: STRICTER_TOKENS.emptyTyp, code: 'ERR_JWS_HEADER_INVALID' },
  {
    // At exactly iat + maxAge, on one fixed clock: fast-jwt accepts; edgejwt refuses, as it refuses at exp.
    name: 'token exactly maxAge old',
    token: () => hs256({ alg: 'HS256' }, { sub: 'a', iat: T - 300, exp: T + 600 }),
    ours: { maxTokenAge: 300, currentDate: new Date(T * 1000) },
    fastJwt: { maxAge: 300_000, clockTimestamp: T * 1000 },
    jsonwebtoken: false,
    code: 'ERR_JWT_EXPIRED',
  },
];

describe('migration_stricter_rows', () => {
  for (const row of ROWS) {
    for (const [peerName, accepts, options] of [
      ['fast-jwt', fjAccepts, row.fastJwt],
      ['jsonwebtoken', jwAccepts, row.jsonwebtoken],
    ] as const) {
      if (options === false) continue;
      it(
        `${peerName}: ${row.name}: the peer accepts, edgejwt refuses with ` +
          `${row.code}${row.restore ? `, ${Object.keys(row.restore).join(', ')} restores` : ''}`,
        async () => {
          const token = row.token();
          expect(() => accepts(token, options ?? {})).not.toThrow();
          expect(await ourCode(token, row.ours)).toBe(row.code);
          if (row.restore) expect(await ourCode(token, { ...row.ours, ...row.restore })).toBe('accepted');
        },
      );
    }
  }
  it(
    'max_token_age_refused_at_boundary: jsonwebtoken and edgejwt both refuse a token exactly maxAge old, accept ' +
      'it 1 s younger',
    async () => {
      const token = hs256({ alg: 'HS256' }, { sub: 'a', iat: T - 300, exp: T + 600 });
      expect(() => jwAccepts(token, { maxAge: 300, clockTimestamp: T })).toThrow(/maxAge exceeded/);
      expect(await ourCode(token, { maxTokenAge: 300, currentDate: new Date(T * 1000) })).toBe('ERR_JWT_EXPIRED');
      expect(jwAccepts(token, { maxAge: 300, clockTimestamp: T - 1 }).sub).toBe('a');
      expect(await ourCode(token, { maxTokenAge: 300, currentDate: new Date((T - 1) * 1000) })).toBe('accepted');
    },
  );
  it('both peers: an HS256 secret shorter than 32 bytes verifies; edgejwt refuses the key (ERR_KEY_TOO_SHORT)', () => {
    const short = 'k'.repeat(16);
    const token = hs256({ alg: 'HS256' }, { sub: 'a', exp: now() + 60 }, short);
    expect(fastJwt.createVerifier({ key: short })(token).sub).toBe('a');
    expect(jsonwebtoken.verify(token, short).sub).toBe('a');
    expect(() => createVerifier({ algorithms: ['HS256'], key: new TextEncoder().encode(short) })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_TOO_SHORT' }),
    );
  });
  it('both peers: a 1024-bit RSA key verifies; edgejwt refuses the key (ERR_KEY_TOO_SHORT)', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const token = fastJwt.createSigner({
      key: privateKey.export({ format: 'pem', type: 'pkcs8' }),
      algorithm: 'RS256',
      expiresIn: 60_000,
    })({ sub: 'a' });
    expect(fastJwt.createVerifier({ key: publicKey.export({ format: 'pem', type: 'spki' }) })(token).sub).toBe('a');
    expect(jsonwebtoken.verify(token, publicKey).sub).toBe('a');
    expect(() => createVerifier({ algorithms: ['RS256'], key: publicKey.export({ format: 'jwk' }) as never })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_TOO_SHORT' }),
    );
  });
});
