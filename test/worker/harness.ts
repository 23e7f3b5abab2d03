// Test scaffolding for the guard inside workerd: demo keys, token minting, a
// mocked network (JWKS endpoints and the origin), an execution context whose
// waitUntil work can be awaited, and KV wrappers that count, fail or hang.

import { env } from 'cloudflare:workers';
import type { Guard } from '../../src/worker/runner.js';
import { startGuard } from '../../src/worker/start.js';
import { defaultStages } from '../../src/worker/stages/index.js';
import type { GuardDeps, GuardEnv } from '../../src/worker/build.js';
import type { KVLike } from '../../src/worker/kv.js';
import { b64u, generate, mint, type KeyPair } from '../shared/jwt-mint.js';

export const ISS = 'https://id.example.com';
export const HS_ISS = 'https://hs.example.com';
export const JWKS_URL = 'https://id.example.com/jwks';
export const ORIGIN = 'https://origin.example.com';
export const AUD = 'api';

export const kv = env as unknown as {
  VERIFY_CACHE: KVLike & { list(o?: { prefix?: string }): Promise<{ keys: { name: string }[] }> };
  JWKS_CACHE: KVLike;
};

export interface Keys {
  ed: KeyPair & { kid: string };
  rs: KeyPair & { kid: string };
  hs: KeyPair;
}

let keys: Promise<Keys> | undefined;
export function demoKeys(): Promise<Keys> {
  keys ??= (async () => {
    const ed = { ...(await generate('EdDSA')), kid: 'ed-1' };
    const rs = { ...(await generate('RS256')), kid: 'rs-1' };
    const hs = await generate('HS256');
    return { ed, rs, hs };
  })();
  return keys;
}

export function jwksOf(...pairs: (KeyPair & { kid: string })[]): { keys: Record<string, unknown>[] } {
  return { keys: pairs.map((p) => ({ ...p.publicJwk, kid: p.kid, use: 'sig' })) };
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export async function token(
  pair: KeyPair & { kid?: string },
  extra: Record<string, unknown> = {},
  header: Record<string, unknown> = {},
): Promise<string> {
  const iss = pair.alg.startsWith('HS') ? HS_ISS : ISS;
  const t = nowSeconds();
  const kid = pair.kid === undefined ? {} : { kid: pair.kid };
  return mint(
    pair,
    { iss, aud: AUD, sub: 'alice', scope: 'read', iat: t, exp: t + 3600, ...extra },
    { typ: 'JWT', ...kid, ...header },
  );
}

/** The same claims signed by a key nobody configured. */
export async function forged(alg = 'EdDSA', extra: Record<string, unknown> = {}): Promise<string> {
  const other = { ...(await generate(alg)), kid: alg === 'EdDSA' ? 'ed-1' : 'rs-1' };
  return token(other, extra);
}

export interface Net {
  fetch: typeof fetch;
  calls: { url: string; headers: Headers; method: string }[];
  jwksCalls(): number;
  /** What the JWKS endpoint answers next (default: the current set with max-age=600). */
  jwks: () => Response | Promise<Response>;
}

export function mockNet(initialJwks: unknown): Net {
  const net: Net = {
    calls: [],
    jwksCalls: () => net.calls.filter((c) => c.url.startsWith(JWKS_URL)).length,
    jwks: () => Response.json(initialJwks, { headers: { 'cache-control': 'max-age=600' } }),
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      net.calls.push({ url: req.url, headers: new Headers(req.headers), method: req.method });
      if (req.url.startsWith(JWKS_URL)) return net.jwks();
      if (req.url.startsWith(ORIGIN)) {
        const seen: Record<string, string> = {};
        req.headers.forEach((v, k) => (seen[k] = v));
        return Response.json(
          { origin: true, path: new URL(req.url).pathname, headers: seen },
          { headers: { 'x-origin': 'yes' } },
        );
      }
      throw new TypeError(`unexpected fetch in test: ${req.url}`);
    }) as typeof fetch,
  };
  return net;
}

export class TestCtx {
  readonly pending: Promise<unknown>[] = [];
  waitUntil(p: Promise<unknown>): void {
    this.pending.push(p);
  }
  async settle(): Promise<void> {
    while (this.pending.length > 0) await Promise.allSettled(this.pending.splice(0));
  }
}

export function baseConfig(k: Keys, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuers: [
      { issuer: ISS, audience: AUD, algorithms: ['EdDSA', 'RS256'], jwksUrl: JWKS_URL },
      { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' },
    ],
    publicPaths: ['/health', '/static/*'],
    rules: [{ pathPrefix: '/admin/', scopes: ['admin'], claims: { tenant: 'acme' } }],
    tokenSources: [{ header: 'Authorization' }, { cookie: 'session' }],
    forwardClaims: { sub: 'X-Auth-Sub', scope: 'X-Auth-Scope' },
    origin: ORIGIN,
    ...extra,
  };
}

/** A JWKS URL no other test has used, so KV state from elsewhere cannot leak in. */
export function freshJwksUrl(): string {
  return `${JWKS_URL}?run=${crypto.randomUUID()}`;
}

export const CACHE_KEY = b64u(new Uint8Array(32).fill(7));

export interface Made {
  guard: Guard;
  net: Net;
  logs: string[];
  /** One request through the guard, with every waitUntil settled afterwards. */
  send(path: string, init?: RequestInit): Promise<Response>;
}

export async function makeGuard(
  k: Keys,
  opts: {
    config?: Record<string, unknown>;
    env?: Partial<GuardEnv>;
    net?: Net;
    deps?: GuardDeps;
    settle?: boolean;
  } = {},
): Promise<Made> {
  const net = opts.net ?? mockNet(jwksOf(k.ed, k.rs));
  const logs: string[] = [];
  const guardEnv: GuardEnv = {
    GUARD_CONFIG: JSON.stringify(opts.config ?? baseConfig(k)),
    HS_KEY: b64u(k.hs.secret!),
    VERIFY_CACHE: kv.VERIFY_CACHE,
    JWKS_CACHE: kv.JWKS_CACHE,
    ...opts.env,
  };
  const guard = await startGuard(
    guardEnv,
    { fetch: net.fetch, log: (l) => logs.push(l), ...opts.deps },
    undefined,
    defaultStages,
  );
  return {
    guard,
    net,
    logs,
    async send(path: string, init?: RequestInit) {
      const ctx = new TestCtx();
      const res = await guard.handle(new Request(`https://api.example.com${path}`, init), ctx);
      if (opts.settle !== false) await ctx.settle();
      return res;
    },
  };
}

export function bearer(t: string): RequestInit {
  return { headers: { authorization: `Bearer ${t}` } };
}

/** A KV binding wrapper: counts, and can be made to throw or hang on get/put. */
export class FaultyKV implements KVLike {
  mode: { get: 'ok' | 'throw' | 'reject' | 'hang'; put: 'ok' | 'throw' | 'reject' | 'hang' } = { get: 'ok', put: 'ok' };
  gets = 0;
  puts: { key: string; ttl: number | undefined }[] = [];
  constructor(readonly inner: KVLike) {}
  get(key: string, type: 'text'): Promise<string | null> {
    this.gets++;
    return this.#act(this.mode.get, () => this.inner.get(key, type));
  }
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void> {
    this.puts.push({ key, ttl: options?.expirationTtl });
    return this.#act(this.mode.put, () => this.inner.put(key, value, options));
  }
  #act<T>(m: string, run: () => Promise<T>): Promise<T> {
    if (m === 'throw') throw new Error('KV binding threw');
    if (m === 'reject') return Promise.reject(new Error('KV unavailable'));
    if (m === 'hang') return new Promise<T>(() => undefined);
    return run();
  }
}

/** A fresh Ed25519 private JWK as JSON: the secret an `originAssertion.keyBinding` names. */
export async function assertionKeyJson(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const {
    key_ops: _o,
    ext: _e,
    ...jwk
  } = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as Record<string, unknown>;
  return JSON.stringify(jwk);
}
