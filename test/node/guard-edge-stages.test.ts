// The guard's mTLS stage (src/worker/stages/mtls/mtls-stage.ts) and revocation stage with the
// isolate store (src/worker/stages/revocation/revocation-stage.ts, revocation-admin.ts) run in Node:
// createGuard with a config object, the origin and the clock through deps. The same
// behaviours in workerd: test/worker/stages/mtls/mtls.test.ts, test/worker/stages/revocation/revocation.test.ts.
//
// Node's Request has no `cf`; the guard reads `request.cf.tlsClientAuth` from the
// request object it is given, so the test sets `cf` on that object as Cloudflare's
// runtime does (an own property), with the real certificate of test/vectors/mtls/.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { hasAdminSecret } from '../../src/worker/stages/admin/admin.js';
import { createGuard, defaultStages, type EmbeddedGuard } from '../../src/worker/api.js';
import { generate, mint, type KeyPair } from '../shared/jwt-mint.js';
import cert from '../vectors/mtls/client_cert.json';

const ISS = 'https://id.example.com';
const PLAIN_ISS = 'https://plain.example.com';
const AUD = 'api';
const ORIGIN = 'https://origin.example.com';
const API = 'https://api.example.com/data';
const ADMIN_PATH = '/__guard/revocations';
const SECRET = 'revocation-admin-secret-0123456789';
const COUNTERS_PATH = '/__guard/admin';

let key: KeyPair;
const jwks = () => ({ keys: [{ ...key.publicJwk, kid: 'es-1', use: 'sig' }] });
const nowSeconds = () => Math.floor(Date.now() / 1000);
const ctx = { waitUntil: (p: Promise<unknown>) => void p.catch(() => undefined) };

beforeAll(async () => {
  key = await generate('ES256');
});

/** Two issuers with the same key: `ISS` (with `mtls` when given) and `PLAIN_ISS` (never mtls). */
function guard(extra: { mtls?: 'required' | 'allowed'; revocation?: boolean; admin?: boolean } = {}) {
  const logs: string[] = [];
  const originCalls: string[] = [];
  const g = createGuard(
    {
      issuers: [
        {
          issuer: ISS,
          audience: AUD,
          algorithms: ['ES256'],
          jwks: jwks(),
          ...(extra.mtls === undefined ? {} : { mtls: extra.mtls }),
        },
        { issuer: PLAIN_ISS, audience: AUD, algorithms: ['ES256'], jwks: jwks() },
      ],
      origin: ORIGIN,
      ...(extra.revocation === true
        ? { revocation: { path: ADMIN_PATH, secretBinding: 'REVOCATION_SECRET', store: 'isolate' } }
        : {}),
      ...(extra.admin === true ? { admin: { path: COUNTERS_PATH, secretBinding: 'REVOCATION_SECRET' } } : {}),
    } as never,
    {
      stages: defaultStages,
      log: (l) => logs.push(l),
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const req = new Request(input, init);
        if (!req.url.startsWith(ORIGIN)) throw new TypeError(`unexpected fetch in test: ${req.url}`);
        originCalls.push(new URL(req.url).pathname);
        return Response.json({ origin: true });
      }) as typeof fetch,
    },
  );
  const env = { REVOCATION_SECRET: SECRET };
  const send = (url: string, init: RequestInit = {}, cf?: unknown) => {
    const request = new Request(url.startsWith('/') ? `https://api.example.com${url}` : url, init);
    if (cf !== undefined) Object.defineProperty(request, 'cf', { value: cf, enumerable: true });
    return g.fetch(request, env as never, ctx);
  };
  const lastCode = () =>
    (JSON.parse(logs.filter((l) => l.includes('"status":401')).at(-1) ?? '{}') as { code?: string }).code;
  return { guard: g as EmbeddedGuard, send, logs, originCalls, lastCode };
}

function token(claims: Record<string, unknown> = {}, iss = ISS): Promise<string> {
  const t = nowSeconds();
  return mint(key, { iss, aud: AUD, sub: 'alice', iat: t, exp: t + 3600, ...claims }, { typ: 'JWT', kid: 'es-1' });
}
const bearer = (t: string): RequestInit => ({ headers: { authorization: `Bearer ${t}` } });

// ---- mTLS -------------------------------------------------------------------------------

/** The vector's DER, hashed as Cloudflare reports it: lower-case hex SHA-256. */
function fingerprintHex(): string {
  const der = Buffer.from(cert.pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return createHash('sha256').update(der).digest('hex');
}
/** Another certificate: the first hex digit of the real one flipped. */
const otherFingerprint = (hex: string) => (Number.parseInt(hex[0]!, 16) ^ 1).toString(16) + hex.slice(1);
const presented = (fingerprint: string, certVerified = 'SUCCESS', certRevoked = '0') => ({
  tlsClientAuth: { certPresented: '1', certVerified, certRevoked, certFingerprintSHA256: fingerprint },
});
const bound = { cnf: { 'x5t#S256': cert.x5tS256 } };

describe('mTLS stage in Node (RFC 8705, request.cf.tlsClientAuth)', () => {
  it(
    'node_mtls_bound_token_with_certificate: a bound token with its verified certificate -> 200, forwarded ' +
      '(required and allowed)',
    async () => {
      const fp = fingerprintHex();
      expect(fp).toBe(cert.sha256sumOfDer);
      for (const mode of ['required', 'allowed'] as const) {
        const g = guard({ mtls: mode });
        const res = await g.send(API, bearer(await token(bound)), presented(fp));
        expect(res.status, mode).toBe(200);
        expect(await res.json()).toEqual({ origin: true });
        expect(g.originCalls).toEqual(['/data']);
      }
    },
  );

  it(
    'node_mtls_wrong_certificate_refused: another certificate -> 401 invalid_token ERR_MTLS_BINDING_MISMATCH, ' +
      'nothing forwarded, no fingerprint in the answer or log',
    async () => {
      const fp = fingerprintHex();
      for (const mode of ['required', 'allowed'] as const) {
        const g = guard({ mtls: mode });
        const res = await g.send(API, bearer(await token(bound)), presented(otherFingerprint(fp)));
        expect(res.status, mode).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
        expect(g.lastCode()).toBe('ERR_MTLS_BINDING_MISMATCH');
        const all = (await res.text()) + g.logs.join('\n') + res.headers.get('www-authenticate');
        expect(all).not.toContain(fp.slice(8, 40));
        expect(all).not.toContain(cert.x5tS256);
        expect(g.originCalls).toHaveLength(0);
      }
    },
  );

  it(
    'node_mtls_no_certificate_refused: a bound token without a certificate (no cf, or the placeholder) -> 401 ' +
      'ERR_MTLS_CERT_MISSING',
    async () => {
      const g = guard({ mtls: 'required' });
      const placeholder = {
        tlsClientAuth: { certPresented: '0', certVerified: 'NONE', certRevoked: '0', certFingerprintSHA256: '' },
      };
      for (const cf of [undefined, placeholder]) {
        expect((await g.send(API, bearer(await token(bound)), cf)).status).toBe(401);
        expect(g.lastCode()).toBe('ERR_MTLS_CERT_MISSING');
      }
    },
  );

  it(
    'node_mtls_unverified_certificate_refused: the matching certificate the edge did not verify (self-signed, ' +
      'expired, none, revoked) -> 401',
    async () => {
      const fp = fingerprintHex();
      const g = guard({ mtls: 'required' });
      for (const cf of [
        presented(fp, 'FAILED:self signed certificate'),
        presented(fp, 'FAILED:certificate has expired'),
        presented(fp, 'NONE'),
        presented(fp, 'SUCCESS', '1'),
      ]) {
        expect((await g.send(API, bearer(await token(bound)), cf)).status).toBe(401);
        expect(g.lastCode()).toBe('mtls_cert_unverified');
      }
      expect(g.originCalls).toHaveLength(0);
    },
  );

  it(
    'node_mtls_required_refuses_unbound_token: "required" with no x5t#S256 -> 401 ERR_MTLS_CNF_MISSING even ' +
      'with a good certificate; "allowed" passes it',
    async () => {
      const fp = fingerprintHex();
      const required = guard({ mtls: 'required' });
      expect((await required.send(API, bearer(await token()), presented(fp))).status).toBe(401);
      expect(required.lastCode()).toBe('ERR_MTLS_CNF_MISSING');
      const allowed = guard({ mtls: 'allowed' });
      expect((await allowed.send(API, bearer(await token()), presented(fp))).status).toBe(200);
      expect((await allowed.send(API, bearer(await token()))).status).toBe(200);
    },
  );

  it(
    'node_mtls_bound_token_on_issuer_without_mtls_refused: a certificate-bound token of an issuer without mtls ' +
      'is 401 even with its certificate (sender constraint)',
    async () => {
      const fp = fingerprintHex();
      // With and without an mtls issuer elsewhere in the config: the mtls stage never proves another issuer's binding.
      for (const g of [guard(), guard({ mtls: 'required' })]) {
        expect((await g.send(API, bearer(await token({}, PLAIN_ISS)), presented(fp))).status).toBe(200);
        const res = await g.send(API, bearer(await token(bound, PLAIN_ISS)), presented(fp));
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
        expect(g.originCalls).toEqual(['/data']);
      }
    },
  );
});

// ---- revocation (isolate store) -----------------------------------------------------

const admin = (body?: unknown, secret = SECRET): RequestInit => ({
  method: body === undefined ? 'GET' : 'POST',
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  headers: { 'x-guard-admin': secret },
});

describe('revocation stage in Node (store "isolate") and its admin endpoint', () => {
  it(
    'node_revoked_token_refused_from_l1: a token verified and served from L1 is 401 once its jti is revoked; ' +
      'another jti still passes',
    async () => {
      const g = guard({ revocation: true });
      const t = await token({ jti: 'l1-token' });
      const other = await token({ jti: 'other-token' });
      expect((await g.send(API, bearer(t))).status).toBe(200);
      const hit = await g.send(API, bearer(t));
      expect(hit.status).toBe(200);
      expect(hit.headers.get('server-timing')).toContain('desc="l1"');
      const added = await g.send(ADMIN_PATH, admin({ jti: 'l1-token', exp: nowSeconds() + 600 }));
      expect(added.status).toBe(200);
      expect(await added.json()).toEqual({ version: 1 });
      const refused = await g.send(API, bearer(t));
      expect(refused.status).toBe(401);
      expect(refused.headers.get('server-timing')).toContain('desc="l1"');
      expect(refused.headers.get('www-authenticate')).toMatch(
        /error="invalid_token", error_description="The access token was revoked"/,
      );
      expect(g.lastCode()).toBe('revoked');
      expect((await g.send(API, bearer(other))).status).toBe(200);
      expect(g.originCalls).toEqual(['/data', '/data', '/data']);
    },
  );

  it(
    'node_revocation_by_subject_issued_before: iss+sub tokens issued before the cut-off are 401; later ones, ' +
      'other subjects and other issuers pass',
    async () => {
      const g = guard({ revocation: true });
      const now = nowSeconds();
      const old = await token({ sub: 'mallory', iat: now - 100 });
      const fresh = await token({ sub: 'mallory', iat: now + 5 });
      const otherSub = await token({ sub: 'alice', iat: now - 100 });
      const otherIss = await token({ sub: 'mallory', iat: now - 100 }, PLAIN_ISS);
      expect((await g.send(API, bearer(old))).status).toBe(200);
      expect(
        (await g.send(ADMIN_PATH, admin({ iss: ISS, sub: 'mallory', issuedBefore: now, exp: now + 7200 }))).status,
      ).toBe(200);
      expect((await g.send(API, bearer(old))).status).toBe(401);
      expect(g.lastCode()).toBe('revoked');
      expect((await g.send(API, bearer(fresh))).status).toBe(200);
      expect((await g.send(API, bearer(otherSub))).status).toBe(200);
      expect((await g.send(API, bearer(otherIss))).status).toBe(200);
    },
  );

  it(
    'node_revocation_admin_requires_secret: a missing or wrong X-Guard-Admin is 401, revokes nothing and is ' +
      'never forwarded',
    async () => {
      const g = guard({ revocation: true });
      const t = await token({ jti: 'kept' });
      for (const secret of ['', 'wrong', SECRET.slice(0, -1) + 'X', SECRET + 'X']) {
        expect((await g.send(ADMIN_PATH, admin({ jti: 'kept', exp: nowSeconds() + 60 }, secret))).status).toBe(401);
      }
      expect(
        (await g.send(ADMIN_PATH, { method: 'POST', body: JSON.stringify({ jti: 'kept', exp: nowSeconds() + 60 }) }))
          .status,
      ).toBe(401);
      expect((await g.send(ADMIN_PATH, admin(undefined, 'wrong'))).status).toBe(401);
      expect((await g.send(API, bearer(t))).status).toBe(200);
      expect(await (await g.send(ADMIN_PATH, admin())).json()).toMatchObject({ version: 0, entries: [] });
      expect(g.originCalls).toEqual(['/data']);
    },
  );

  it(
    'node_revocation_admin_get_lists_entries: GET with the secret lists both kinds of entry in force with their ' +
      'versions, no-store',
    async () => {
      const g = guard({ revocation: true });
      const now = nowSeconds();
      expect((await g.send(ADMIN_PATH, admin({ jti: 'a', exp: now + 60 }))).status).toBe(200);
      expect((await g.send(ADMIN_PATH, admin({ iss: ISS, sub: 'b', issuedBefore: now, exp: now + 60 }))).status).toBe(
        200,
      );
      const res = await g.send(ADMIN_PATH, admin());
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({
        version: 2,
        entries: [
          { jti: 'a', exp: now + 60, version: 1 },
          { iss: ISS, sub: 'b', issuedBefore: now, exp: now + 60, version: 2 },
        ],
      });
      expect(g.originCalls).toHaveLength(0);
    },
  );
});

describe('admin secret outside workerd (crypto.subtle.timingSafeEqual is workerd-only)', () => {
  it(
    'node_admin_endpoints_answer_with_the_secret: the counters endpoint answers 200 with the secret and 401 ' +
      'without it, never 500',
    async () => {
      expect((crypto.subtle as { timingSafeEqual?: unknown }).timingSafeEqual).toBeUndefined();
      const g = guard({ admin: true });
      const ok = await g.send(COUNTERS_PATH, { headers: { 'x-guard-admin': SECRET } });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toMatchObject({ counters: expect.any(Object) });
      expect((await g.send(COUNTERS_PATH, { headers: { 'x-guard-admin': SECRET + 'X' } })).status).toBe(401);
    },
  );

  it(
    'admin_secret_compare_without_timingSafeEqual: hasAdminSecret is true exactly for the same non-empty secret ' +
      '(fast-check)',
    async () => {
      const ask = (header: string, secret: string) =>
        hasAdminSecret(new Request(API, { headers: { 'x-guard-admin': header } }), secret);
      // Header values are trimmed by fetch; printable ASCII without edge spaces keeps header == sent.
      const value = fc.stringMatching(/^[!-~]([ -~]{0,38}[!-~])?$/);
      await fc.assert(
        fc.asyncProperty(value, value, async (a, b) => {
          expect(await ask(a, b)).toBe(a === b);
          expect(await ask(b, b)).toBe(true);
          expect(await ask(b + 'x', b)).toBe(false);
        }),
        { numRuns: 200 },
      );
      expect(await ask('', '')).toBe(false);
    },
  );
});
