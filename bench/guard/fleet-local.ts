// The fleet model's key-set scenarios against a real runtime (issue 35, item 4, first
// step): Miniflare (workerd, its real Cache API) runs bench/guard/fleet-local-entry.ts;
// a provider on 127.0.0.1 answers the key set after a configurable delay and counts its
// fetches. Each request builds its key set afresh (what a fresh isolate has), so the
// counts are per request; it does not start fresh isolates (the isolate bench does).
// Reports per peer: first-request I/O p50 with the colo tier warm, fetches, and a kid
// spray of 100 concurrent requests. Run: node bench/guard/fleet-local.ts (BENCH_DELAY_MS).
import { createServer } from 'node:http';
import { generateKeyPairSync, createSign } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorker } from '../lib/workerd-bundle.ts';
import { miniflareFor } from '../lib/workerd.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 100);
const ROUNDS = 30;
const dir = fileURLToPath(new URL('.', import.meta.url));
const outDir = join(dir, '../../build/fleet-local');
mkdirSync(outDir, { recursive: true });

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...(publicKey.export({ format: 'jwk' }) as object), kid: 'k1', alg: 'RS256', use: 'sig' };
const b64u = (s: string | Buffer) => Buffer.from(s).toString('base64url');
function token(kid: string): string {
  const now = Math.floor(Date.now() / 1000);
  const input =
    `${b64u(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))}.` +
    `${b64u(JSON.stringify({ sub: 'u', iat: now, exp: now + 3600 }))}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(privateKey).toString('base64url')}`;
}

let hits = 0;
const provider = createServer((_req, res) => {
  hits++;
  setTimeout(
    () =>
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' })
        .end(JSON.stringify({ keys: [jwk] })),
    DELAY_MS,
  );
});
await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
const port = (provider.address() as { port: number }).port;

await bundleWorker(join(dir, 'fleet-local-entry.ts'), join(outDir, 'worker.js'));
const mf = miniflareFor(outDir, {
  bindings: { JWKS_URL: `http://127.0.0.1:${port}/jwks.json`, CACHE_KEY: Buffer.alloc(32, 7).toString('base64url') },
});
const env = environment(['jose', 'miniflare']);
printEnvironment(env);

async function call(peer: string, t: string): Promise<{ ok: boolean; ms: number; wall: number }> {
  const started = performance.now();
  const res = await mf.dispatchFetch(`http://localhost/?peer=${peer}&token=${encodeURIComponent(t)}`);
  const body = (await res.json()) as { ok: boolean; ms: number };
  return { ...body, wall: performance.now() - started };
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const good = token('k1');
const result: Record<string, unknown> = { delayMs: DELAY_MS, rounds: ROUNDS };
// edgejwt: the first request fills the colo tier; each later one is a fresh instance reading it.
let before = hits;
const warmup = await call('edgejwt', good);
const edge = [];
for (let i = 0; i < ROUNDS; i++) edge.push(await call('edgejwt', good));
result.edgejwt = {
  firstFill: warmup,
  fetchesAfterFill: hits - before - 1,
  ok: edge.every((x) => x.ok),
  ioMsP50: p50(edge.map((x) => x.ms)),
  wallMsP50: p50(edge.map((x) => x.wall)),
};
before = hits;
const jose = [];
for (let i = 0; i < ROUNDS; i++) jose.push(await call('jose', good));
result.jose = {
  fetches: hits - before,
  ok: jose.every((x) => x.ok),
  ioMsP50: p50(jose.map((x) => x.ms)),
  wallMsP50: p50(jose.map((x) => x.wall)),
};
// Spray: 100 concurrent fresh instances, each with a kid nobody has, after the first fetch's cooldown.
await new Promise((r) => setTimeout(r, 31_000));
before = hits;
const spray = await Promise.all(Array.from({ length: 100 }, (_, i) => call('edgejwt', token(`spray-${i}`))));
result.spray = { requests: 100, fetches: hits - before, refused: spray.filter((x) => !x.ok).length };
console.log(JSON.stringify(result, null, 2));
console.log(`wrote ${writeResults('fleet-local', { env, ...result })}`);
await mf.dispose();
provider.close();
