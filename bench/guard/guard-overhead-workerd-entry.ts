// Cases run inside workerd (bench/guard/guard-overhead-workerd.ts): per algorithm, one warm
// request through the guard (L1 off, so every request verifies; a stub origin that
// answers at once), the library's verify of the same token, and the request plumbing
// alone (building the Request the runtime would hand the guard, and the stub origin).
// guard − verify − plumbing is the guard's own CPU per request. Then the steps of
// that request one at a time (`step …`: the guard's decision alone, without the
// forwarding; `part …`: one runtime object or one of the guard's functions).
import { createVerifier } from '../../src/index.ts';
import { findToken } from '../../src/bearer/token.ts';
import { startGuard } from '../../src/worker/start.ts';
import { defaultStages } from '../../src/worker/stages/index.ts';
import { canonicalPath } from '../../src/worker/stages/path/path.ts';
import { identityHeaders, stripIdentity } from '../../src/worker/request.ts';
import { requestTarget } from '../../src/worker/request-url.ts';
import { isolateRevocationStore, RevocationView } from '../../src/worker/revocation/index.ts';
import type { WorkerCase } from '../lib/workerd.ts';

const enc = new TextEncoder();
const b64u = (bytes: Uint8Array) => {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const ISS = 'https://issuer.bench.invalid';
const AUD = 'api';

const GEN: Record<
  string,
  { gen: Algorithm | RsaHashedKeyGenParams | EcKeyGenParams; sign: AlgorithmIdentifier | EcdsaParams }
> = {
  EdDSA: { gen: { name: 'Ed25519' }, sign: 'Ed25519' },
  RS256: {
    gen: {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    } as RsaHashedKeyGenParams,
    sign: 'RSASSA-PKCS1-v1_5',
  },
  ES256: { gen: { name: 'ECDSA', namedCurve: 'P-256' }, sign: { name: 'ECDSA', hash: 'SHA-256' } },
};

/** What Cloudflare's edge and a browser add to a request (10 headers besides authorization and accept). */
const EDGE_HEADERS = {
  'user-agent': 'bench',
  'accept-encoding': 'gzip',
  'accept-language': 'en',
  'cf-connecting-ip': '192.0.2.1',
  'cf-ipcountry': 'DE',
  'cf-ray': '0123456789abcdef',
  'cf-visitor': '{"scheme":"https"}',
  'x-forwarded-for': '192.0.2.1',
  'x-forwarded-proto': 'https',
  'x-real-ip': '192.0.2.1',
};

/** `startBaseline`: another checkout's startGuard (BENCH_BASELINE_SRC), timed in the same rounds. */
export default async function setup(
  startBaseline?: (env: never, deps: never) => Promise<unknown>,
): Promise<WorkerCase[]> {
  const cases: WorkerCase[] = [];
  const ctx = { waitUntil() {} };
  const stub = () => Promise.resolve(new Response('ok'));
  for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256'] as const) {
    const now = Math.floor(Date.now() / 1000);
    const input =
      `${b64u(enc.encode(JSON.stringify({ alg, typ: 'JWT', kid: 'k1' })))}.` +
      b64u(
        enc.encode(
          JSON.stringify({ iss: ISS, aud: AUD, sub: 'user-1', scope: 'read write', iat: now, exp: now + 3600 }),
        ),
      );
    let sig: Uint8Array;
    let source: Record<string, unknown>;
    let libKey: unknown;
    const env: Record<string, unknown> = {};
    if (alg === 'HS256') {
      const secret = crypto.getRandomValues(new Uint8Array(32));
      const k = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      sig = new Uint8Array(await crypto.subtle.sign('HMAC', k, enc.encode(input)));
      env.HS_KEY = b64u(secret);
      source = { secretBinding: 'HS_KEY' };
      libKey = secret;
    } else {
      const pair = (await crypto.subtle.generateKey(GEN[alg]!.gen, true, ['sign', 'verify'])) as CryptoKeyPair;
      const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
      delete jwk.key_ops;
      delete jwk.ext;
      sig = new Uint8Array(await crypto.subtle.sign(GEN[alg]!.sign, pair.privateKey, enc.encode(input)));
      source = { jwks: { keys: [{ ...jwk, kid: 'k1', alg }] } };
      libKey = jwk;
    }
    const token = `${input}.${b64u(sig)}`;
    env.GUARD_CONFIG = {
      issuers: [{ issuer: ISS, audience: AUD, algorithms: [alg], ...source }],
      origin: 'https://origin.bench.invalid',
      forwardClaims: { sub: 'X-Auth-Sub', scope: 'X-Auth-Scope' },
      cache: { verify: false, l1Max: 0 },
    };
    const guard = await startGuard(env as never, { fetch: stub, log: () => undefined }, undefined, defaultStages);
    const verifier = createVerifier({
      issuers: [
        {
          issuer: ISS,
          audience: AUD,
          algorithms: [alg],
          ...(alg === 'HS256'
            ? { key: libKey as Uint8Array }
            : { jwks: { keys: [{ ...(libKey as object), kid: 'k1', alg }] } as never }),
        },
      ],
      cache: false,
    });
    const url = 'https://api.bench.invalid/api/orders?x=1';
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const handled = await guard.handle(new Request(url, { headers }), ctx);
    if (handled.status !== 200) throw new Error(`guard ${alg}: ${handled.status} ${await handled.text()}`);
    await verifier.verify(token);
    cases.push({
      name: `${alg} guard request (L1 off, stub origin)`,
      fn: () => guard.handle(new Request(url, { headers }), ctx),
      async: true,
    });
    if (startBaseline !== undefined) {
      const base = (await startBaseline(
        env as never,
        { fetch: stub, log: () => undefined } as never,
      )) as unknown as typeof guard;
      const r = await base.handle(new Request(url, { headers }), ctx);
      if (r.status !== 200) throw new Error(`baseline guard ${alg}: ${r.status}`);
      cases.push({
        name: `${alg} baseline guard request (L1 off, stub origin)`,
        fn: () => base.handle(new Request(url, { headers }), ctx),
        async: true,
      });
    }
    // An L1 hit (a warm request's usual verify): each hit checks the key that proved it (issue 22).
    const l1Env = { ...env, GUARD_CONFIG: { ...(env.GUARD_CONFIG as object), cache: { verify: false } } };
    const withL1 = await startGuard(l1Env as never, { fetch: stub, log: () => undefined }, undefined, defaultStages);
    await withL1.verify(token, ctx);
    cases.push({ name: `step ${alg} guard.verify (L1 hit)`, fn: () => withL1.verify(token, ctx), async: true });
    // The decision with the verify taken out (an L1 hit): what the stages cost for this algorithm's token.
    cases.push({
      name: `step ${alg} guard.authenticate (L1 hit)`,
      fn: () => withL1.authenticate(new Request(url, { headers }), ctx),
      async: true,
    });
    // The whole request with an L1 hit (forwarding included): what a warm request usually costs.
    cases.push({
      name: `${alg} guard request with an L1 hit (stub origin)`,
      fn: () => withL1.handle(new Request(url, { headers }), ctx),
      async: true,
    });
    // As an edge hands a request on: a dozen headers (Cloudflare's, the browser's), which the guard's header walks
    // read.
    const edgeHeaders = { ...headers, ...EDGE_HEADERS };
    if (alg === 'HS256')
      cases.push({
        name: `${alg} 12-header guard request with an L1 hit (stub origin)`,
        fn: () => withL1.handle(new Request(url, { headers: edgeHeaders }), ctx),
        async: true,
      });
    if (startBaseline !== undefined) {
      const baseL1 = (await startBaseline(
        l1Env as never,
        { fetch: stub, log: () => undefined } as never,
      )) as unknown as typeof guard;
      await baseL1.verify(token, ctx);
      if (alg === 'HS256')
        cases.push({
          name: `${alg} 12-header baseline guard request with an L1 hit (stub origin)`,
          fn: () => baseL1.handle(new Request(url, { headers: edgeHeaders }), ctx),
          async: true,
        });
      cases.push({
        name: `step ${alg} baseline guard.verify (L1 hit)`,
        fn: () => baseL1.verify(token, ctx),
        async: true,
      });
      cases.push({
        name: `step ${alg} baseline guard.authenticate (L1 hit)`,
        fn: () => baseL1.authenticate(new Request(url, { headers }), ctx),
        async: true,
      });
      cases.push({
        name: `${alg} baseline guard request with an L1 hit (stub origin)`,
        fn: () => baseL1.handle(new Request(url, { headers }), ctx),
        async: true,
      });
    }
    cases.push({ name: `${alg} library verify`, fn: () => verifier.verify(token), async: true });
    cases.push({
      name: `${alg} plumbing (Request + stub origin)`,
      fn: () => stub().then(() => new Request(url, { headers })),
      async: true,
    });
    // Per algorithm, so the guard's own cost can be read as authenticate − verify (L1 off) − library verify for each.
    cases.push({
      name: `step ${alg} guard.authenticate (the decision, nothing forwarded)`,
      fn: () => guard.authenticate(new Request(url, { headers }), ctx),
      async: true,
    });
    cases.push({ name: `step ${alg} guard.verify (L1 off)`, fn: () => guard.verify(token, ctx), async: true });
    cases.push({
      name: `step ${alg} verifier.verify through the guard's own verifier`,
      fn: async () => guard.parts.verifier.verifyOpened(guard.parts.verifier.open(token)),
      async: true,
    });
    if (alg === 'HS256') {
      const config = guard.parts.config;
      const own = identityHeaders(config);
      const withToken = new Request(url, { headers });
      cases.push({
        name: 'part findToken (Authorization: Bearer …)',
        fn: () => findToken(withToken.headers, config.tokenSources),
      });
      cases.push({
        name: 'part stripIdentity (2 headers, none stripped)',
        fn: () => stripIdentity(withToken.headers, own),
      });
      cases.push(...(await revocationCases(env, secretOf(env), url, ctx, stub)));
    }
  }
  cases.push(...(await revocationViewCases()));
  // What the guard's request path is made of, one runtime object or call at a time.
  const url = 'https://api.bench.invalid/api/orders?x=1';
  const req = new Request(url, { headers: { authorization: 'Bearer x.y.z', accept: 'application/json' } });
  const res = new Response('ok');
  cases.push({ name: 'part new URL', fn: () => new URL(req.url) });
  cases.push({
    name: 'part requestTarget(request.url) (what the guard does instead)',
    fn: () => requestTarget(req.url),
  });
  cases.push({ name: 'part canonicalPath (a plain path)', fn: () => canonicalPath('/api/orders', 'reject') });
  cases.push({
    name: 'part canonicalPath (with ;, an escape)',
    fn: () => canonicalPath('/api;v=1/ord%65rs', 'reject'),
  });
  cases.push({ name: 'part new Headers(request.headers)', fn: () => new Headers(req.headers) });
  cases.push({ name: 'part headers.get', fn: () => req.headers.get('authorization') });
  // Walking the header names (method override, hop-by-hop and identity stripping): forEach
  // against the iterator, on the bench request and on one with a dozen headers as an edge adds.
  const many = new Request(url, {
    headers: { authorization: 'Bearer x.y.z', accept: 'application/json', ...EDGE_HEADERS },
  });
  for (const [label, r] of [
    ['2 headers', req],
    ['12 headers', many],
  ] as const) {
    cases.push({
      name: `part headers.forEach over the names (${label})`,
      fn: () => {
        let n = 0;
        r.headers.forEach((_, name) => {
          n += name.length;
        });
        return n;
      },
    });
    cases.push({
      name: `part for-of headers.keys() (${label})`,
      fn: () => {
        let n = 0;
        for (const name of (r.headers as Headers & { keys(): IterableIterator<string> }).keys()) n += name.length;
        return n;
      },
    });
    cases.push({
      name: `part new Headers + 2 get + 6 delete (the old hop-by-hop, ${label})`,
      fn: () => {
        const h = new Headers(r.headers);
        h.get('connection');
        h.get('upgrade');
        for (const n of ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding'])
          h.delete(n);
        return h;
      },
    });
    cases.push({
      name: `part new Headers + one keys() walk (the new hop-by-hop, ${label})`,
      fn: () => {
        const h = new Headers(r.headers);
        return [...(h as Headers & { keys(): IterableIterator<string> }).keys()];
      },
    });
  }
  cases.push({
    name: 'part new Request(url, { headers })',
    fn: () => new Request(url, { method: 'GET', headers: req.headers, redirect: 'manual' }),
  });
  const target = new URL('https://origin.bench.invalid/api/orders?x=1');
  cases.push({
    name: 'part new Request(URL object, { headers }) (the old forwarding)',
    fn: () => new Request(target, { method: 'GET', headers: req.headers, redirect: 'manual' }),
  });
  cases.push({
    name: 'part the old forwarding: new Headers + new URL + 3 setters + new Request',
    fn: () => {
      const h = new Headers(req.headers);
      const t = new URL('https://origin.bench.invalid');
      t.pathname = '/api/orders';
      t.search = '?x=1';
      t.hash = '';
      return new Request(t, { method: 'GET', headers: h, body: req.body, redirect: 'manual' });
    },
  });
  cases.push({
    name: 'part the new forwarding: new Request(string, { headers: request.headers })',
    fn: () =>
      new Request('https://origin.bench.invalid' + '/api/orders' + '?x=1', {
        method: req.method,
        headers: req.headers,
        body: req.body,
        redirect: 'manual',
      }),
  });
  cases.push({ name: 'part new Response(body, response)', fn: () => new Response(res.body, res) });
  cases.push({
    name: 'part response.headers.append',
    fn: () => new Response(null).headers.append('server-timing', 'edgejwt;desc="verify";dur=0.100'),
  });
  cases.push({ name: 'part performance.now', fn: () => performance.now() });
  // The runtime alone, for the async algorithms: what awaiting costs, and a WebCrypto call
  // that does no work (an RS/ES verify goes through the same promise machinery).
  const empty = new Uint8Array(0);
  cases.push({ name: 'part runtime await of a resolved promise', fn: () => Promise.resolve(), async: true });
  cases.push({
    name: 'part runtime empty WebCrypto round trip (SHA-256 digest of 0 bytes)',
    fn: () => crypto.subtle.digest('SHA-256', empty),
    async: true,
  });
  return cases;
}

const secretOf = (env: Record<string, unknown>) => env.HS_KEY as string;
const REVOKED_ENTRIES = 10_000;
const REV_SECRET = 'bench-revocation-secret-000000';

/** 10,000 entries, half by jti and half by subject, none naming the bench token. */
async function fill(revoke: (entry: object) => Promise<unknown>): Promise<void> {
  const exp = Math.floor(Date.now() / 1000) + 86_400;
  for (let i = 0; i < REVOKED_ENTRIES; i++)
    await revoke(
      i % 2 === 0
        ? { jti: `revoked-${i}`, exp }
        : { iss: ISS, sub: `user-revoked-${i}`, issuedBefore: exp - 86_400, exp },
    );
}

/**
 * Issue 25's revocation cost, same run: the HS256 guard (a token with a jti, so both
 * lookups run) without the revocation stage, with it and nothing revoked, and with
 * 10,000 entries; a full request with L1 off, and the decision alone on an L1 hit.
 */
async function revocationCases(
  base: Record<string, unknown>,
  secret: string,
  url: string,
  ctx: { waitUntil(): void },
  stub: () => Promise<Response>,
): Promise<WorkerCase[]> {
  const now = Math.floor(Date.now() / 1000);
  const input =
    `${b64u(enc.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'k1' })))}.` +
    b64u(
      enc.encode(
        JSON.stringify({
          iss: ISS,
          aud: AUD,
          sub: 'user-1',
          scope: 'read write',
          jti: 'bench-token-1',
          iat: now,
          exp: now + 3600,
        }),
      ),
    );
  const key = await crypto.subtle.importKey(
    'raw',
    Uint8Array.from(atob(secret.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const token = `${input}.${b64u(new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(input))))}`;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const config = base.GUARD_CONFIG as Record<string, unknown>;
  const revocation = { path: '/__bench/revocations', secretBinding: 'REV_SECRET', store: 'isolate' };
  const out: WorkerCase[] = [];
  for (const l1 of [false, true]) {
    const cache = l1 ? { verify: false } : { verify: false, l1Max: 0 };
    const make = (withRevocation: boolean) =>
      startGuard(
        { ...base, REV_SECRET, GUARD_CONFIG: { ...config, cache, ...(withRevocation ? { revocation } : {}) } } as never,
        { fetch: stub, log: () => undefined },
        undefined,
        defaultStages,
      );
    const [off, on, full] = await Promise.all([make(false), make(true), make(true)]);
    await fill((entry) =>
      full.handle(
        new Request(`https://api.bench.invalid${revocation.path}`, {
          method: 'POST',
          headers: { 'x-guard-admin': REV_SECRET },
          body: JSON.stringify(entry),
        }),
        { waitUntil: () => undefined },
      ),
    );
    for (const [label, g] of [
      ['no revocation stage', off],
      ['revocation on, nothing revoked', on],
      [`revocation on, ${REVOKED_ENTRIES.toLocaleString('en-US')} entries`, full],
    ] as const) {
      const r = await g.handle(new Request(url, { headers }), ctx);
      if (r.status !== 200) throw new Error(`revocation bench guard (${label}): ${r.status}`);
      out.push(
        l1
          ? {
              name: `revocation HS256 guard.authenticate (L1 hit), ${label}`,
              fn: () => g.authenticate(new Request(url, { headers }), ctx),
              async: true,
            }
          : {
              name: `revocation HS256 guard request (L1 off), ${label}`,
              fn: () => g.handle(new Request(url, { headers }), ctx),
              async: true,
            },
      );
    }
  }
  return out;
}

/** The stage's check alone (RevocationView.checkNow on a fresh copy), nothing revoked and 10,000 entries. */
async function revocationViewCases(): Promise<WorkerCase[]> {
  const payload = {
    iss: ISS,
    aud: AUD,
    sub: 'user-1',
    jti: 'bench-token-1',
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 3600,
  };
  const empty = new RevocationView(isolateRevocationStore(), { required: true, refreshMs: 60_000 });
  const store = isolateRevocationStore();
  await fill((entry) => store.revoke(entry as never));
  const full = new RevocationView(store, { required: true, refreshMs: 60_000 });
  for (const v of [empty, full])
    if ((await v.check(payload)) !== 'ok') throw new Error('revocation bench: the token is not meant to be revoked');
  return [
    { name: 'part RevocationView.checkNow, nothing revoked', fn: () => empty.checkNow(payload) },
    {
      name: `part RevocationView.checkNow, ${REVOKED_ENTRIES.toLocaleString('en-US')} entries`,
      fn: () => full.checkNow(payload),
    },
  ];
}
