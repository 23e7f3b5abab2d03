// docs/migrate-hono.md against hono's own middleware: (1) its code block is
// test/node/doc-examples/migrate-hono.ts byte for byte, and that file runs and prints
// what its `// → …` comments say; (2) hono's `jwt` and `edgejwt/hono` with the options
// the note maps to each other hand the route the same payload; (3) every row of
// "Where edgejwt is stricter" holds: hono's `jwt` lets the request through, edgejwt
// refuses it with the code the note names, and the option the note gives (where it
// gives one) lets it through again.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { jwk } from 'hono/jwk';
import { jwt, sign as honoSign, verify as honoVerify } from 'hono/jwt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SECRET, SECRET_TEXT, STRICTER_TOKENS, hs256, now } from './migration-tokens.js';
import { createSigner, isJwtError } from '../../src/index.js';
import { jwtAuth } from '../../src/hono/index.js';

const DOC = fileURLToPath(new URL('../../docs/migrate-hono.md', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('./doc-examples/migrate-hono.ts', import.meta.url));

// Hono's and edgejwt's middleware differ in the Env they declare; the app here declares none.
type Middleware = (c: never, next: () => Promise<void>) => Promise<unknown>;
/** An app behind `auth`: the status, and the JwtError code edgejwt refused with (or the payload). */
async function call(auth: Middleware, token: string): Promise<{ status: number; code?: string; payload?: unknown }> {
  let code: string | undefined;
  const app = new Hono();
  app.onError((err, c) => {
    if (isJwtError(err.cause)) code = err.cause.code;
    return 'getResponse' in err ? (err as { getResponse(): Response }).getResponse() : c.text('error', 500);
  });
  app.use(auth as Parameters<Hono['use']>[1]);
  app.get('/', (c) => c.json(c.get('jwtPayload' as never)));
  const res = await app.request('http://x/', { headers: { authorization: `Bearer ${token}` } });
  return {
    status: res.status,
    ...(code === undefined ? {} : { code }),
    ...(res.status === 200 ? { payload: await res.json() } : {}),
  };
}
const theirs = (verification: object = {}) => jwt({ secret: SECRET_TEXT, alg: 'HS256', verification });
const ours = (options: Record<string, unknown> = {}) =>
  jwtAuth({ algorithms: ['HS256'], key: SECRET, cache: false, ...options });

describe('migration_hono_doc_example', () => {
  afterEach(() => vi.restoreAllMocks());
  it('the note’s code block is test/node/doc-examples/migrate-hono.ts, byte for byte', () => {
    const blocks = [
      ...readFileSync(DOC, 'utf8').matchAll(/^```ts doctest=migrate-hono[ \t]*\n([\s\S]*?)^```[ \t]*$/gm),
    ];
    expect(blocks).toHaveLength(1);
    expect(blocks[0]![1]).toBe(readFileSync(EXAMPLE, 'utf8'));
  });
  it('the example runs and prints what its comments say', async () => {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    await import(EXAMPLE);
    const want = [...readFileSync(EXAMPLE, 'utf8').matchAll(/console\.log\(.*\);\s*\/\/ → (.*)$/gm)].map((m) =>
      m[1]!.trim(),
    );
    expect(want.length).toBeGreaterThan(0);
    expect(printed).toEqual(want);
  });
});

describe('migration_hono_same_answer', () => {
  it(
    'jwt({ secret, alg, verification: { iss, aud } }) and jwtAuth({ algorithms, key, issuer, audience }) hand ' +
      'the route the same payload',
    async () => {
      const token = createSigner({ alg: 'HS256', key: SECRET }).signSync(
        { sub: 'alice', scope: 'read' },
        { expiresIn: 300, issuer: 'https://auth.example', audience: 'api' },
      );
      const a = await call(theirs({ iss: 'https://auth.example', aud: 'api' }), token);
      const b = await call(ours({ issuer: 'https://auth.example', audience: 'api' }), token);
      expect(a.status).toBe(200);
      expect(b).toEqual(a);
    },
  );
  it('jwk({ keys }) and jwtAuth({ algorithms, jwks: { keys } }) hand the route the same payload', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ])) as CryptoKeyPair;
    const { kty, crv, x, y } = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
    const key = { kty: kty!, crv: crv!, x: x!, y: y!, kid: 'k1', alg: 'ES256' };
    const token = await createSigner({ alg: 'ES256', key: pair.privateKey, header: { kid: 'k1' } }).sign(
      { sub: 'bob' },
      { expiresIn: 300 },
    );
    const a = await call(jwk({ keys: [key], alg: ['ES256'] }), token);
    const b = await call(jwtAuth({ algorithms: ['ES256'], jwks: { keys: [key] } }), token);
    expect(a.status).toBe(200);
    expect(b).toEqual(a);
  });
});

// One row of the note's "Where edgejwt is stricter" table.
interface Row {
  name: string;
  token: () => string;
  code: string;
  /** Options that let the request through, where the note names one. */
  restore?: Record<string, unknown>;
}
const ROWS: Row[] = [
  { name: 'no exp', token: STRICTER_TOKENS.noExp, code: 'ERR_JWT_CLAIM_INVALID', restore: { requireExp: false } },
  {
    name: 'token over 16 KiB',
    token: STRICTER_TOKENS.over16KiB,
    code: 'ERR_JWT_TOO_LARGE',
    restore: { maxTokenLength: 65_536 },
  },
  { name: 'a header member named twice', token: STRICTER_TOKENS.headerMemberTwice, code: 'ERR_JWS_HEADER_INVALID' },
  {
    name: 'signature with non-zero trailing bits',
    token: STRICTER_TOKENS.nonZeroTrailingBits,
    code: 'ERR_JWT_MALFORMED',
  },
];

describe('migration_hono_stricter_rows', () => {
  for (const row of ROWS) {
    it(
      `${row.name}: hono's jwt lets it through, edgejwt/hono answers 401 (${row.code})` +
        `${row.restore ? `, ${Object.keys(row.restore).join(', ')} restores` : ''}`,
      async () => {
        const token = row.token();
        expect((await call(theirs(), token)).status).toBe(200);
        expect(await call(ours(), token)).toEqual({ status: 401, code: row.code });
        if (row.restore) expect((await call(ours(row.restore), token)).status).toBe(200);
      },
    );
  }
  it(
    'hono_bound_token_never_bearer: a token bound to a key (cnf.jkt, cnf.x5t#S256) sent as Bearer: hono lets it ' +
      'through; edgejwt/hono answers 401 invalid_token',
    async () => {
      for (const cnf of [
        { jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' },
        { 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' },
      ]) {
        const token = hs256({ alg: 'HS256', typ: 'JWT' }, { sub: 'a', exp: now() + 60, cnf });
        expect((await call(theirs(), token)).status).toBe(200);
        expect(await call(ours(), token)).toEqual({ status: 401 });
      }
    },
  );
  it(
    'single_line_pem_refused: hono signs with a PEM on one line; edgejwt refuses it (ERR_KEY_INVALID), the same ' +
      'key with its lines signs',
    async () => {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const lines = (privateKey.export({ format: 'pem', type: 'pkcs8' }) as string).trim().split('\n');
      const oneLine = lines.join('');
      const spki = publicKey.export({ format: 'pem', type: 'spki' }) as string;
      const theirToken = await honoSign({ sub: 'a', exp: now() + 60 }, oneLine, 'RS256');
      expect((await honoVerify(theirToken, spki, 'RS256')).sub).toBe('a');
      // RFC 7468 §3: in the strict and the lax grammar alike the BEGIN and END boundaries are lines of their own.
      const signWith = async (key: string) => createSigner({ alg: 'RS256', key }).sign({ sub: 'a' }, { expiresIn: 60 });
      expect(
        await signWith(oneLine).then(
          () => 'signed',
          (e: unknown) => (isJwtError(e) ? e.code : String(e)),
        ),
      ).toBe('ERR_KEY_INVALID');
      // The lax form (the base64 on one line between the two boundary lines) is read.
      const laxForm = `${lines[0]}\n${lines.slice(1, -1).join('')}\n${lines.at(-1)}\n`;
      expect((await honoVerify(await signWith(laxForm), spki, 'RS256')).sub).toBe('a');
    },
  );
  it('empty_typ_refused: hono and edgejwt/hono both answer 401 to typ ""', async () => {
    const token = STRICTER_TOKENS.emptyTyp();
    expect((await call(theirs(), token)).status).toBe(401);
    expect(await call(ours(), token)).toEqual({ status: 401, code: 'ERR_JWS_HEADER_INVALID' });
  });
  it(
    'an HS256 secret shorter than 32 bytes: hono verifies with it; edgejwt refuses the key when the middleware ' +
      'is made (ERR_KEY_TOO_SHORT)',
    async () => {
      const short = 'k'.repeat(16);
      const token = hs256({ alg: 'HS256' }, { sub: 'a', exp: now() + 60 }, short);
      expect((await call(jwt({ secret: short, alg: 'HS256' }), token)).status).toBe(200);
      expect(() => jwtAuth({ algorithms: ['HS256'], key: new TextEncoder().encode(short) })).toThrow(
        expect.objectContaining({ code: 'ERR_KEY_TOO_SHORT' }),
      );
    },
  );
  it(
    'a signed-cookie option ({ key, secret }): hono reads it; edgejwt refuses the option (ERR_OPTIONS_INVALID, ' +
      'setting cookie)',
    () => {
      expect(() =>
        jwt({ secret: SECRET_TEXT, alg: 'HS256', cookie: { key: 'session', secret: 'cookie secret' } }),
      ).not.toThrow();
      expect(() =>
        jwtAuth({ algorithms: ['HS256'], key: SECRET, cookie: { key: 'session', secret: 'cookie secret' } } as never),
      ).toThrow(expect.objectContaining({ code: 'ERR_OPTIONS_INVALID', setting: 'cookie' }));
    },
  );
});
