// Remote JWKS against a real local HTTP server (the real fetch, streams and aborts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteJWKSet, createVerifier, type JWK } from '../../src/index.js';
import { DiscoveredKeySource } from '../../src/worker/discovery.js';
import { algSpec } from '../../src/algorithms.js';

const pair = generateKeyPairSync('ed25519');
const jwk = { ...(pair.publicKey.export({ format: 'jwk' }) as JWK), kid: 'k1' };
const b64u = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const input = `${b64u(JSON.stringify({ alg: 'EdDSA', kid: 'k1' }))}.${b64u(JSON.stringify({ sub: 'u', exp: 4e9 }))}`;
const token = `${input}.${b64u(sign(null, Buffer.from(input), pair.privateKey))}`;

const hits: Record<string, number> = {};
let server: Server;
let base = '';

function handler(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  hits[path] = (hits[path] ?? 0) + 1;
  const body = JSON.stringify({ keys: [jwk] });
  switch (path) {
    case '/jwks':
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300' });
      res.end(body);
      return;
    case '/slow-jwks':
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      }, 150);
      return;
    case '/redirect':
      res.writeHead(302, { location: `${base}/jwks` });
      res.end();
      return;
    case '/hang':
      return; // never answers
    case '/drip-jwks':
    case '/drip/.well-known/openid-configuration': {
      // Headers at once, then one byte every 20 ms for ever: only a deadline over the body ends it.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"keys":[');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 20);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case '/stall-jwks':
      // Headers and half a body, then silence.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"keys":[');
      return;
    case '/huge': {
      // Chunked, no content-length: the cap must stop the stream.
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(16_384);
      let sent = 0;
      const push = (): void => {
        if (sent++ > 100 || res.destroyed) return void res.end();
        res.write(chunk, push);
      };
      res.write(`{"keys":[],"pad":"`, push);
      return;
    }
    default:
      res.writeHead(500);
      res.end();
  }
}

beforeAll(async () => {
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const verifier = (path: string, opts: Parameters<typeof createRemoteJWKSet>[1] = {}) =>
  createVerifier({ algorithms: ['EdDSA'], jwks: createRemoteJWKSet(`${base}${path}`, opts), cache: false });

async function code(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'OK',
    (e: { code?: string }) => e.code ?? String(e),
  );
}

describe('remote JWKS over real HTTP', () => {
  it('fetches once for many concurrent verifies', async () => {
    const v = verifier('/slow-jwks');
    const results = await Promise.all(Array.from({ length: 25 }, () => code(v.verify(token))));
    expect(new Set(results)).toEqual(new Set(['OK']));
    expect(hits['/slow-jwks']).toBe(1);
  });
  it('serves from memory within max-age', async () => {
    const v = verifier('/jwks');
    for (let i = 0; i < 5; i++) expect(await code(v.verify(token))).toBe('OK');
    expect(hits['/jwks']).toBe(1);
  });
  it('never follows a redirect', async () => {
    const before = hits['/jwks'] ?? 0;
    expect(await code(verifier('/redirect').verify(token))).toBe('ERR_JWKS_FETCH_FAILED');
    expect(hits['/jwks'] ?? 0).toBe(before);
  });
  it('times out', async () => {
    expect(await code(verifier('/hang', { timeoutDuration: 100 }).verify(token))).toBe('ERR_JWKS_TIMEOUT');
  });
  it('stops reading a body larger than maxSize', async () => {
    expect(await code(verifier('/huge', { maxSize: 65_536 }).verify(token))).toBe('ERR_JWKS_INVALID');
  });
  it('a 500 with no earlier set fails', async () => {
    expect(await code(verifier('/boom').verify(token))).toBe('ERR_JWKS_FETCH_FAILED');
  });

  // Issue 22 item 2: the deadline covers the body, for the fetcher and every verify joined on it.
  it('jwks_body_stall_times_out', async () => {
    for (const path of ['/drip-jwks', '/stall-jwks']) {
      const v = verifier(path, { timeoutDuration: 200 });
      const results = await Promise.all(Array.from({ length: 5 }, () => code(v.verify(token))));
      expect(results).toEqual(Array(5).fill('ERR_JWKS_TIMEOUT'));
    }
  });
  it('discovery_body_stall_times_out', async () => {
    const source = new DiscoveredKeySource({
      issuer: `${base}/drip`,
      fetch: globalThis.fetch,
      timeoutMs: 200,
      cooldownMs: 0,
      now: Date.now,
      store: undefined,
      keySet: (uri) => createRemoteJWKSet(uri),
      log: () => undefined,
    });
    const spec = algSpec('EdDSA')!;
    const results = await Promise.all(
      Array.from({ length: 5 }, () => code(Promise.resolve().then(() => source.select(spec, 'k1')))),
    );
    expect(results).toEqual(Array(5).fill('ERR_JWKS_TIMEOUT'));
  });
});
