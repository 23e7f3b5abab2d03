// The guard in a real workerd (Miniflare), reached over raw HTTP/1.1 on loopback,
// so request targets the Request constructor would never produce arrive as a
// client can send them: `//host/x`, `/\host`, absolute-form targets, a GET or
// HEAD with a body. Proves forward_host_fixed and get_head_body_not_500 end to
// end: only the configured origin (a loopback server) ever receives a request,
// a second loopback server standing in for the attacker gets none, and no
// answer is a 5xx.
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare, convertV4MiniflareOptions } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../../bench/lib/workerd-bundle.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ISS = 'https://hs.example.com';
const SECRET = Buffer.alloc(32, 3);
const b64u = (b: Buffer | string) => Buffer.from(b).toString('base64url');

function hsToken(claims: Record<string, unknown>): string {
  const input =
    `${b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.` +
    b64u(JSON.stringify({ iss: ISS, aud: 'api', sub: 'alice', exp: Math.floor(Date.now() / 1000) + 3600, ...claims }));
  return `${input}.${b64u(createHmac('sha256', SECRET).update(input).digest())}`;
}

/** A loopback HTTP server that records the request targets it receives. */
function recorder(): Promise<{ server: Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    seen.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.end(JSON.stringify({ path: req.url })));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, seen })),
  );
}

/**
 * Send `head` (request line and headers, CRLF-separated, no final blank line) and an optional body; the status code.
 */
function rawRequest(port: number, head: string, body = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let data = '';
    sock.setEncoding('latin1');
    sock.on('data', (d: string) => (data += d));
    sock.on('error', reject);
    sock.on('end', () => {
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(data);
      if (m === null) reject(new Error(`no status line in ${JSON.stringify(data.slice(0, 80))}`));
      else resolve(Number(m[1]));
    });
    sock.write(
      `${head}\r\nConnection: close\r\n` +
        `${body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`}\r\n${body}`,
    );
  });
}

let mf: Miniflare;
let port: number;
let origin: Awaited<ReturnType<typeof recorder>>;
let attacker: Awaited<ReturnType<typeof recorder>>;
const read = hsToken({ scope: 'read' });

beforeAll(async () => {
  origin = await recorder();
  attacker = await recorder();
  const dir = mkdtempSync(join(tmpdir(), 'edgejwt-raw-'));
  const outfile = join(dir, 'worker.js');
  // The same bundle as the benches' Workers: workerd resolution, the Wasm core copied beside it.
  const { wasmImport } = await bundleWorker(join(root, 'src/worker/index.ts'), outfile);
  if (wasmImport === undefined) throw new Error('the bundle does not import the Wasm core');
  const config = {
    issuers: [{ issuer: ISS, audience: 'api', algorithms: ['HS256'], secretBinding: 'HS_KEY' }],
    publicPaths: ['/health'],
    rules: [{ pathPrefix: '/admin/', scopes: ['admin'] }],
    forwardClaims: { sub: 'X-Auth-Sub' },
    origin: `http://127.0.0.1:${origin.port}`,
  };
  mf = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      workers: [
        {
          name: 'guard',
          modulesRoot: dir,
          modules: [
            { type: 'ESModule', path: outfile },
            { type: 'CompiledWasm', path: join(outfile, '..', wasmImport) },
          ],
          compatibilityDate: '2026-11-01',
          bindings: { GUARD_CONFIG: JSON.stringify(config), HS_KEY: b64u(SECRET) },
        },
      ],
    }),
  );
  port = Number((await mf.ready).port);
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  origin?.server.close();
  attacker?.server.close();
});

describe('raw HTTP through workerd', () => {
  it('forward_host_fixed: no request target reaches another host', async () => {
    const att = `127.0.0.1:${attacker.port}`;
    const targets = [
      `//${att}/steal`,
      `/\\${att}/steal`,
      `\\\\${att}/steal`,
      `/%2F%2F${att}/steal`,
      `/%5C%5C${att}/steal`,
      `/..//${att}/steal`,
      `/.//${att}/steal`,
      `///${att}/steal`,
      `http://${att}/steal`,
      `https://${att}/steal`,
    ];
    const statuses: Record<string, number> = {};
    for (const t of targets) {
      statuses[t] = await rawRequest(
        port,
        `GET ${t} HTTP/1.1\r\nHost: api.example.com\r\nAuthorization: Bearer ${read}`,
      );
    }
    for (const [t, s] of Object.entries(statuses)) expect(s, t).toBeLessThan(500);
    expect(attacker.seen).toEqual([]);
    // The sanity side: something did get through, to the origin.
    expect(origin.seen.length).toBeGreaterThan(0);
  });

  it('path_rule_not_skipped: spellings of /admin/ are refused over the wire', async () => {
    const before = origin.seen.length;
    for (const t of ['//admin/x', '/Admin/x', '/admin', '/admin;x/y', '/%2Fadmin/x', '/%61dmin/x', '/\\admin/x']) {
      const s = await rawRequest(port, `GET ${t} HTTP/1.1\r\nHost: api.example.com\r\nAuthorization: Bearer ${read}`);
      expect([400, 403], t).toContain(s);
    }
    expect(origin.seen.length).toBe(before);
  });

  it('get_head_body_not_500: a GET or HEAD with a body gets a 4xx', async () => {
    for (const method of ['GET', 'HEAD']) {
      for (const path of ['/health', '/x']) {
        const s = await rawRequest(
          port,
          `${method} ${path} HTTP/1.1\r\nHost: api.example.com\r\nAuthorization: Bearer ${read}`,
          'hello',
        );
        expect(s, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(s, `${method} ${path}`).toBeLessThan(500);
      }
    }
  });
});
