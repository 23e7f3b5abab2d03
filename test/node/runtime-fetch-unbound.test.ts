// The runtime's own fetch, as workerd behaves, with nothing injected: workerd's fetch
// throws "Illegal invocation" when called as a method of another object, so here
// globalThis.fetch is replaced for the file by one that does the same (else it is
// Node's real fetch, to a server on 127.0.0.1). Also the guard under Node forwarding
// a streamed request body (Node refuses a stream body without `duplex: "half"`).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, createVerifier } from '../../src/index.js';
import { jwtAuth } from '../../src/hono/index.js';
import { DiscoveredKeySource } from '../../src/worker/discovery.js';
import { createGuard, keySets, remoteKeys, serviceOrigin } from '../../src/worker/api.js';
import { algSpec } from '../../src/algorithms.js';
import { generate, mint, type KeyPair } from '../shared/jwt-mint.js';

const realFetch = globalThis.fetch;
let calls = 0;
/** workerd's rule: a method call on anything but the global object is an illegal invocation. */
function strictFetch(this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  calls++;
  if (this !== undefined && this !== globalThis) throw new TypeError('Illegal invocation');
  return realFetch(input, init);
}

let pair: KeyPair;
let server: Server;
let base = '';
const seconds = () => Math.floor(Date.now() / 1000);

function handler(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/jwks') return void res.end(JSON.stringify({ keys: [{ ...pair.publicJwk, kid: 'k1' }] }));
  if (req.url === '/idp/.well-known/openid-configuration') {
    return void res.end(JSON.stringify({ issuer: `${base}/idp`, jwks_uri: `${base}/jwks` }));
  }
  // Any other path is the origin: the method, the byte count and a hash of the body it received.
  const hash = createHash('sha256');
  let length = 0;
  req.on('data', (chunk: Buffer) => (hash.update(chunk), (length += chunk.length)));
  req.on('end', () => res.end(JSON.stringify({ method: req.method, length, sha256: hash.digest('hex') })));
}

beforeAll(async () => {
  pair = await generate('RS256');
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  globalThis.fetch = strictFetch as typeof fetch;
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const issuers = () => [{ issuer: `${base}/idp`, audience: 'api', algorithms: ['RS256'], jwksUrl: `${base}/jwks` }];
const token = (extra: Record<string, unknown> = {}) =>
  mint(pair, { iss: `${base}/idp`, aud: 'api', sub: 'u', exp: seconds() + 600, ...extra }, { kid: 'k1' });

describe('platform functions are called as plain functions', () => {
  it('remote_key_set_calls_runtime_fetch_unbound', async () => {
    calls = 0;
    const verifier = createVerifier({ algorithms: ['RS256'], jwks: createRemoteJWKSet(new URL(`${base}/jwks`)) });
    expect((await verifier.verify(await token())).payload.sub).toBe('u');
    expect(calls).toBe(1);
  });

  it('hono_with_remote_key_set_calls_runtime_fetch_unbound', async () => {
    const app = new Hono();
    app.use(jwtAuth({ algorithms: ['RS256'], jwks: createRemoteJWKSet(`${base}/jwks`), log: () => undefined }));
    app.get('/', (c) => c.text('ok'));
    const res = await app.request('http://x/', { headers: { authorization: `Bearer ${await token()}` } });
    expect(res.status).toBe(200);
  });

  it('discovery_calls_runtime_fetch_unbound', async () => {
    calls = 0;
    const source = new DiscoveredKeySource({
      issuer: `${base}/idp`,
      fetch: globalThis.fetch,
      timeoutMs: 2000,
      cooldownMs: 0,
      now: Date.now,
      store: undefined,
      keySet: (uri) => createRemoteJWKSet(uri),
      log: () => undefined,
    });
    const entry = await source.select(algSpec('RS256')!, 'k1');
    expect(entry).toBeDefined();
    expect(calls).toBe(2);
  });

  it('guard_calls_given_fetch_unbound', async () => {
    // A guard given the runtime's fetch itself (`createGuard(config, { fetch })`): it forwards with it as a plain call.
    const deps = { stages: [keySets, remoteKeys], fetch: globalThis.fetch, log: () => undefined };
    const g = createGuard({ issuers: issuers(), origin: base } as never, deps);
    const request = new Request('https://api.example/x', { headers: { authorization: `Bearer ${await token()}` } });
    const res = await g.fetch(request, {} as never, ctx);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ method: 'GET', length: 0 });
  });
});

const ctx = { waitUntil: (p: Promise<unknown>) => void p.catch(() => undefined) };

/** 1 MiB in 64 KiB chunks, as a stream (more than one chunk reaches the origin), and its SHA-256. */
function upload(): { body: ReadableStream<Uint8Array>; sha256: string } {
  const chunk = new Uint8Array(65_536).map((_, i) => i % 251);
  const whole = createHash('sha256');
  for (let i = 0; i < 16; i++) whole.update(chunk);
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent++ < 16) c.enqueue(chunk.slice());
      else c.close();
    },
  });
  return { body, sha256: whole.digest('hex') };
}

async function post(origin: unknown, env: object): Promise<{ status: number; json: unknown; sha256: string }> {
  const g = createGuard({ issuers: issuers(), origin } as never, {
    stages: [keySets, remoteKeys, serviceOrigin],
    log: () => undefined,
  });
  const { body, sha256 } = upload();
  const init = { method: 'POST', body, duplex: 'half', headers: { authorization: `Bearer ${await token()}` } };
  const res = await g.fetch(new Request('https://api.example/upload', init as RequestInit), env as never, ctx);
  return { status: res.status, json: res.status === 200 ? await res.json() : await res.text(), sha256 };
}

describe('the guard forwards request bodies under Node', () => {
  it('guard_forwards_streamed_request_body', async () => {
    const r = await post(base, {});
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ method: 'POST', length: 16 * 65_536, sha256: r.sha256 });
  });

  it('guard_forwards_streamed_request_body_to_service_binding', async () => {
    // The binding stands in for another Worker: it hands the request to the same origin server.
    const API = {
      fetch: (r: Request) => realFetch(`${base}/up`, { method: 'POST', body: r.body, duplex: 'half' } as RequestInit),
    };
    const r = await post({ service: 'API' }, { API });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ method: 'POST', length: 16 * 65_536, sha256: r.sha256 });
  });
});
