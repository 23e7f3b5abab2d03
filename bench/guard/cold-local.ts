// Issue 35 item 4: the fleet model's key-set scenarios against real `wrangler dev`
// isolates. Every "fresh isolate" is a new `wrangler dev` process (so a new workerd
// process and a new isolate whose module evaluates anew: no reset endpoint), local
// persistence in a temp dir (Miniflare's Cache API and KV, kept across restarts),
// and an RS256 key set at a provider on 127.0.0.1 that answers after BENCH_DELAY_MS
// (default 100) and counts its fetches. Measured from this process: the wall time of
// each isolate's first request (through wrangler's local proxy), the provider fetches
// it caused, and the JWKS_CACHE KV reads it made (counted in the Worker,
// cold-local-entry.ts). Peers: the edgejwt guard (colo tier warm, KV warm only,
// nothing warm) and a jose guard (createRemoteJWKSet; memory only, so always cold).
// Then a kid spray (fresh isolates one after another, random kids) counting provider fetches per
// cooldown; isolates at once (one wrangler dev, five Workers: a burst with nothing warm, then a kid
// spray); a provider outage inside staleDuration; and, in cold-local-limits.ts, an outage past
// jwks.staleMs and a key the provider drops (their results: bench/results/cold-local-limits.json).
// Run: npm run bench:cold-local (BENCH_ROUNDS, BENCH_DELAY_MS, BENCH_SPRAY_S, BENCH_TOGETHER,
// BENCH_OUTAGE_ISOLATES, BENCH_STALE_INSIDE, BENCH_STALE_PAST, BENCH_REMOVAL_ISOLATES; 0 skips a part, and
// BENCH_ROUNDS=0 leaves bench/results/cold-local.json as it is; BENCH_SMOKE=1: seconds)
import { spawn, type ChildProcess } from 'node:child_process';
import { createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { keyRemoval, outagePastStale, type Rig } from './cold-local-limits.ts';

const smoke = process.env.BENCH_SMOKE === '1';
const root = fileURLToPath(new URL('../..', import.meta.url));
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (smoke ? 1 : 9));
const SPRAY_S = Number(process.env.BENCH_SPRAY_S ?? (smoke ? 0 : 75));
const SPRAY_BURST = smoke ? 10 : 40;
const TOGETHER = Number(process.env.BENCH_TOGETHER ?? (smoke ? 0 : 5));
const OUTAGE_ISOLATES = Number(process.env.BENCH_OUTAGE_ISOLATES ?? (smoke ? 0 : 4));
const STALE_INSIDE = Number(process.env.BENCH_STALE_INSIDE ?? (smoke ? 0 : 4));
const STALE_PAST = Number(process.env.BENCH_STALE_PAST ?? (smoke ? 1 : 2));
const REMOVAL_ISOLATES = Number(process.env.BENCH_REMOVAL_ISOLATES ?? (smoke ? 1 : 5));
const COOLDOWN_MS = 30_000; // the guard's default jwks.cooldownMs and jose's default cooldownDuration
const ISSUER = 'https://cold-local.invalid';
const AUDIENCE = 'api';
const work = mkdtempSync(join(tmpdir(), 'edgejwt-cold-local-'));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

// The provider: RS256 keys (k1; k2 too when told), answered after DELAY_MS; `down` answers 503 after the same
// delay, `hang` answers nothing until it ends.
const pair = (kid: string) => {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, jwk: { ...(publicKey.export({ format: 'jwk' }) as object), kid, alg: 'RS256', use: 'sig' } };
};
const k1 = pair('k1');
const k2 = pair('k2');
const { privateKey } = k1;
const b64u = (s: string | Buffer) => Buffer.from(s).toString('base64url');
function token(kid: string, signer = privateKey): string {
  const now = Math.floor(Date.now() / 1000);
  const head = b64u(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
  const body = b64u(JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: 'u', iat: now, exp: now + 3600 }));
  const input = `${head}.${body}`;
  return `${input}.${createSign('RSA-SHA256').update(input).sign(signer).toString('base64url')}`;
}
const fetchesAt: number[] = [];
const servedAt: number[] = [];
let down = false;
let hang = false;
let served = [k1.jwk];
const hung = new Set<import('node:http').ServerResponse>();
const HANG_MS = 1500;
const provider = createHttpServer((_req, res) => {
  fetchesAt.push(Date.now());
  if (hang) {
    // Nothing for HANG_MS (longer than any jwks.timeoutMs set here: the guard's deadline ends the wait), then
    // the connection drops, so that no workerd waits on it to exit.
    hung.add(res);
    setTimeout(() => (res.destroy(), hung.delete(res)), HANG_MS);
    return;
  }
  setTimeout(() => {
    if (down) res.writeHead(503).end();
    else {
      const headers = { 'content-type': 'application/json', 'cache-control': 'max-age=600' };
      res.writeHead(200, headers).end(JSON.stringify({ keys: served }));
      servedAt.push(Date.now());
    }
  }, DELAY_MS);
});
await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
const jwksUrl = `http://127.0.0.1:${(provider.address() as { port: number }).port}/jwks.json`;

// One wrangler config per Worker: the edgejwt guard (default stages, Cache API tier with CACHE_KEY, KV copy)
// and the jose guard of the isolate bench. `jwks` (e.g. a short maxAgeMs) is for the outage and removal phases.
function config(peer: 'edgejwt' | 'jose', jwks?: Record<string, number>, index = ''): string {
  const main = peer === 'edgejwt' ? 'bench/guard/cold-local-entry.ts' : 'bench/guard/isolate/jose-guard.ts';
  const guard = {
    issuers: [{ issuer: ISSUER, audience: AUDIENCE, algorithms: ['RS256'], jwksUrl }],
    origin: 'builtin:echo',
    cache: { jwks: true },
    ...(jwks === undefined ? {} : { jwks }),
  };
  const file = join(work, `${peer}${index}${jwks === undefined ? '' : `-${Object.values(jwks).join('-')}`}.toml`);
  const abs = (p: string) => JSON.stringify(join(root, p));
  writeFileSync(
    file,
    `name = "cold-local-${peer}${index}"
main = ${abs(main)}
compatibility_date = "2026-11-01"
send_metrics = false
[alias]
"#core-loader" = ${abs('src/wasm/load-workerd.ts')}
"#crypto-backend" = ${abs('src/backend/webcrypto.ts')}
"#platform" = ${abs('src/platform/web.ts')}
[[kv_namespaces]]
binding = "JWKS_CACHE"
id = "cold-local-jwks"
[vars]
CACHE_KEY = "${b64u(Buffer.alloc(32, 7))}"
GUARD_CONFIG = '''${JSON.stringify(guard)}'''
`,
  );
  return file;
}

const wranglerEnv = {
  ...process.env,
  PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
  CI: 'true',
};

interface Isolate {
  child: ChildProcess;
  port: number;
}
// Every wrangler dev still running (each in its own process group): taken down on any exit.
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of live) {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  rmSync(work, { recursive: true, force: true });
});
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

// A new wrangler dev process: returns once it prints "Ready on" (no request reaches the Worker before ours).
async function startIsolate(configFile: string | string[], persist: string): Promise<Isolate> {
  const [port, inspector] = [await freePort(), await freePort()];
  const configs = (Array.isArray(configFile) ? configFile : [configFile]).flatMap((c) => ['-c', c]);
  const args = [
    join(root, 'node_modules/wrangler/bin/wrangler.js'),
    'dev',
    ...configs,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
    '--persist-to',
    persist,
    '--show-interactive-dev-session=false',
    '--log-level',
    'info',
  ];
  const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
  const child = spawn(process.execPath, args, { cwd: work, env: wranglerEnv, stdio, detached: true });
  live.add(child);
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`wrangler dev not ready in 120 s:\n${out}`)), 120_000);
    const look = (chunk: Buffer) => {
      out += chunk.toString();
      if (/Ready on/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`wrangler dev exited (${code}):\n${out}`)));
  });
  try {
    await ready;
  } catch (e) {
    await stopIsolate({ child, port });
    throw e;
  }
  return { child, port };
}

async function stopIsolate({ child }: Isolate): Promise<void> {
  live.delete(child);
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

interface First {
  status: number;
  ms: number;
  fetches: number;
  kvReads: number | undefined;
}

async function request(port: number, t: string, to = 0): Promise<{ status: number; ms: number; kvReads?: number }> {
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/x?to=${to}`, { headers: { authorization: `Bearer ${t}` } });
  await res.arrayBuffer();
  const kv = res.headers.get('x-bench-kv-reads');
  return { status: res.status, ms: performance.now() - started, ...(kv === null ? {} : { kvReads: Number(kv) }) };
}

/** One fresh isolate, its first request timed; `settle` lets its waitUntil writes land before it stops. */
async function firstRequest(configFile: string, persist: string, t = token('k1')): Promise<First> {
  const iso = await startIsolate(configFile, persist);
  try {
    const before = fetchesAt.length;
    const r = await request(iso.port, t);
    const fetches = fetchesAt.length - before;
    await new Promise((s) => setTimeout(s, 500));
    return { status: r.status, ms: r.ms, fetches, kvReads: r.kvReads };
  } finally {
    await stopIsolate(iso);
  }
}

const env = environment(['jose']);
const rootVersion = (name: string) =>
  (JSON.parse(readFileSync(join(root, `node_modules/${name}/package.json`), 'utf8')) as { version: string }).version;
env.wrangler = rootVersion('wrangler');
env.workerd = rootVersion('workerd');
env.providerDelayMs = String(DELAY_MS);
printEnvironment(env);

const edgeCfg = config('edgejwt');
const joseCfg = config('jose');
const persist = join(work, 'state');
const KINDS = ['edgejwt, nothing warm', 'edgejwt, colo tier warm', 'edgejwt, KV warm only', 'jose, cold'] as const;
const firsts: Record<string, First[]> = Object.fromEntries(KINDS.map((k) => [k, []]));
const log = (line: string) => process.stderr.write(`[cold-local] ${line}\n`);
try {
  for (let round = 0; round < ROUNDS; round++) {
    // Fixed order: each edgejwt kind starts from the state the one before left (fill, then reuse, then drop the cache).
    rmSync(persist, { recursive: true, force: true });
    firsts['edgejwt, nothing warm']!.push(await firstRequest(edgeCfg, persist));
    firsts['edgejwt, colo tier warm']!.push(await firstRequest(edgeCfg, persist));
    rmSync(join(persist, 'v3/cache'), { recursive: true, force: true });
    firsts['edgejwt, KV warm only']!.push(await firstRequest(edgeCfg, persist));
    firsts['jose, cold']!.push(await firstRequest(joseCfg, join(work, 'jose-state')));
    log(`round ${round + 1}/${ROUNDS}: ${KINDS.map((k) => `${k} ${firsts[k]!.at(-1)!.ms.toFixed(0)} ms`).join(', ')}`);
  }
} catch (e) {
  provider.close();
  throw e;
}

// Kid spray: fresh isolates one after another for SPRAY_S, each sent SPRAY_BURST tokens with random kids
// (10 at a time); provider fetches counted per cooldown window from the phase's start.
async function spray(configFile: string, state: string): Promise<Record<string, unknown>> {
  const start = Date.now();
  const from = fetchesAt.length;
  let isolates = 0;
  let refused = 0;
  let requests = 0;
  while (Date.now() - start < SPRAY_S * 1000) {
    const iso = await startIsolate(configFile, state);
    isolates++;
    try {
      for (let i = 0; i < SPRAY_BURST; i += 10) {
        const n = Math.min(10, SPRAY_BURST - i);
        const batch = Array.from({ length: n }, () => request(iso.port, token(randomUUID())));
        for (const r of await Promise.all(batch)) {
          requests++;
          if (r.status !== 200) refused++;
        }
      }
    } finally {
      await stopIsolate(iso);
    }
  }
  const windows = Math.ceil((Date.now() - start) / COOLDOWN_MS);
  const perWindow = Array.from(
    { length: windows },
    (_, w) => fetchesAt.slice(from).filter((t) => Math.floor((t - start) / COOLDOWN_MS) === w).length,
  );
  const fetches = fetchesAt.length - from;
  return { seconds: (Date.now() - start) / 1000, isolates, requests, refused, fetches, perWindow };
}
let sprayResult: Record<string, unknown> | undefined;
let togetherResult: Record<string, unknown> | undefined;

// TOGETHER guards (or jose guards) in one `wrangler dev`: each Worker is its own isolate, all in one
// Miniflare, so they share its Cache API and KV as the isolates of one data centre do; a front Worker
// routes `?to=i` to the i-th through a service binding. Started twice: nothing warm, a burst of 4 requests
// per isolate with the one good kid; then fresh again (state kept) once the cooldown has passed since the
// burst's last fetch, 10 tokens with random kids per isolate, all at once.
async function together(peer: 'edgejwt' | 'jose'): Promise<Record<string, unknown>> {
  const front = join(work, `front-${peer}.js`);
  const route = 'env["G" + new URL(r.url).searchParams.get("to")]';
  writeFileSync(front, `export default { fetch: (r, env) => ${route}.fetch(r) };\n`);
  const service = (i: number) => `{ binding = "G${i}", service = "cold-local-${peer}-${i}" }`;
  const services = Array.from({ length: TOGETHER }, (_, i) => service(i));
  const frontCfg = join(work, `front-${peer}.toml`);
  writeFileSync(
    frontCfg,
    `name = "cold-local-front-${peer}"\nmain = ${JSON.stringify(front)}\n` +
      `compatibility_date = "2026-11-01"\nsend_metrics = false\nservices = [${services.join(', ')}]\n`,
  );
  const files = [frontCfg, ...Array.from({ length: TOGETHER }, (_, i) => config(peer, undefined, `-${i}`))];
  const state = join(work, `together-${peer}`);
  let iso = await startIsolate(files, state);
  const all = (n: number, t: () => string) =>
    Promise.all(Array.from({ length: TOGETHER * n }, (_, k) => request(iso.port, t(), k % TOGETHER)));
  let from = fetchesAt.length;
  let rs = await all(4, () => token('k1'));
  const passed = rs.filter((r) => r.status === 200).length;
  const burst = { requests: rs.length, passed, fetches: fetchesAt.length - from };
  await new Promise((r) => setTimeout(r, 500));
  await stopIsolate(iso);
  const wait = (fetchesAt.at(-1) ?? 0) + COOLDOWN_MS + 1000 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  iso = await startIsolate(files, state);
  from = fetchesAt.length;
  rs = await all(10, () => token(randomUUID()));
  const refused = rs.filter((r) => r.status !== 200).length;
  const spray = { requests: rs.length, refused, fetches: fetchesAt.length - from };
  await stopIsolate(iso);
  return { burst, spray };
}
let outage: Record<string, unknown> | undefined;
// The scenarios of cold-local-limits.ts, on this file's provider and wrangler processes.
const rig: Rig<Isolate> = {
  config: (jwks, label) => config('edgejwt', jwks, `-${label}`),
  start: startIsolate,
  stop: stopIsolate,
  request,
  token: (kid) => token(kid, kid === 'k1' ? k1.privateKey : k2.privateKey),
  provider: {
    fetchesAt,
    servedAt,
    fail(mode) {
      hang = mode === 'hang';
      if (!hang) for (const res of hung) res.destroy();
      if (!hang) hung.clear();
    },
    keys(kids) {
      served = kids.map((k) => (k === 'k1' ? k1.jwk : k2.jwk));
    },
  },
  dir: work,
  log,
};
const limits: Record<string, unknown> = {};
try {
  if (SPRAY_S > 0) {
    // edgejwt starts with the colo tier and KV warm (the last round's state refilled), so every fetch is the spray's.
    rmSync(persist, { recursive: true, force: true });
    await firstRequest(edgeCfg, persist);
    await new Promise((r) => setTimeout(r, COOLDOWN_MS));
    log(`kid spray: edgejwt for ${SPRAY_S} s…`);
    const edge = await spray(edgeCfg, persist);
    log(`kid spray: jose for ${SPRAY_S} s…`);
    const jose = await spray(joseCfg, join(work, 'jose-state'));
    sprayResult = { cooldownMs: COOLDOWN_MS, burst: SPRAY_BURST, edgejwt: edge, jose };
  }
  if (TOGETHER > 0) {
    log(`${TOGETHER} isolates at once: edgejwt…`);
    const edge = await together('edgejwt');
    log(`${TOGETHER} isolates at once: jose…`);
    togetherResult = { isolates: TOGETHER, edgejwt: edge, jose: await together('jose') };
  }
  if (OUTAGE_ISOLATES > 0) {
    // A set fetched, fresh for 5 s (jwks.maxAgeMs 5000); the provider then fails (503 after the delay) and
    // fresh isolates start while the set is stale but inside staleDuration (the library's default, 1 h).
    log('outage…');
    const cfg = config('edgejwt', { maxAgeMs: 5000 });
    rmSync(persist, { recursive: true, force: true });
    const fill = await firstRequest(cfg, persist);
    await new Promise((r) => setTimeout(r, 6000));
    down = true;
    const edge: First[] = [];
    for (let i = 0; i < OUTAGE_ISOLATES; i++) edge.push(await firstRequest(cfg, persist));
    const jose: First[] = [];
    const joseState = join(work, 'jose-state');
    for (let i = 0; i < Math.min(2, OUTAGE_ISOLATES); i++) jose.push(await firstRequest(joseCfg, joseState));
    down = false;
    outage = { fill, edgejwt: edge, jose };
  }
  if (STALE_INSIDE + STALE_PAST > 0) {
    log('outage past jwks.staleMs…');
    // The smoke run's window is too short for a fresh isolate to start inside it: it checks the code runs.
    const o = { maxAgeMs: 5000, staleMs: smoke ? 1000 : 20_000, timeoutMs: 1000, cooldownMs: smoke ? 1000 : 5000 };
    limits.outagePastStale = await outagePastStale(rig, { ...o, inside: STALE_INSIDE, past: STALE_PAST });
  }
  if (REMOVAL_ISOLATES > 0) {
    log('key removal…');
    const maxAgeMs = smoke ? 5000 : 15_000;
    limits.keyRemoval = await keyRemoval(rig, {
      maxAgeMs,
      dropAfterMs: 1300,
      isolates: REMOVAL_ISOLATES,
      staggerMs: 2000,
    });
  }
} finally {
  provider.close();
}

// The first-request table and the other scenarios (bench/results/cold-local.json), when rounds ran.
function report(): void {
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const q = (xs: number[], p: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  const summary = KINDS.map((k) => {
    const xs = firsts[k]!;
    const ms = xs.map((x) => x.ms);
    return {
      kind: k,
      n: xs.length,
      p50: q(ms, 0.5),
      p25: q(ms, 0.25),
      p75: q(ms, 0.75),
      min: Math.min(...ms),
      max: Math.max(...ms),
      statuses: [...new Set(xs.map((x) => x.status))].join('/'),
      fetchesPerIsolate: xs.map((x) => x.fetches).join(' '),
      kvReadsPerIsolate: xs.map((x) => x.kvReads ?? '-').join(' '),
    };
  });
  console.log('\nFirst request of a fresh isolate (new wrangler dev process), client wall ms:');
  console.log('| kind | n | p50 | p25–p75 | min–max | status | provider fetches / isolate | KV reads / isolate |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  const f = (x: number) => x.toFixed(1);
  for (const s of summary) {
    const spread = `${f(s.p25)}–${f(s.p75)} | ${f(s.min)}–${f(s.max)}`;
    const counts = `${s.statuses} | ${s.fetchesPerIsolate} | ${s.kvReadsPerIsolate}`;
    console.log(`| ${s.kind} | ${s.n} | ${f(s.p50)} | ${spread} | ${counts} |`);
  }
  // An ASCII chart of the medians (docs/speed.md quotes it).
  const top = Math.max(...summary.map((s) => s.p50));
  console.log('\n```');
  const bar = (ms: number) => '█'.repeat(Math.max(1, Math.round((40 * ms) / top)));
  for (const s of summary) console.log(`${s.kind.padEnd(24)} ${bar(s.p50)} ${f(s.p50)} ms`);
  console.log('```');
  if (sprayResult) console.log('\nkid spray:', JSON.stringify(sprayResult));
  if (togetherResult) console.log('\nisolates at once:', JSON.stringify(togetherResult));
  if (outage) console.log('\noutage:', JSON.stringify(outage));
  const results = {
    env,
    delayMs: DELAY_MS,
    rounds: ROUNDS,
    summary,
    firsts,
    spray: sprayResult,
    together: togetherResult,
    outage,
  };
  console.log(`wrote ${writeResults('cold-local', results)}`);
}
if (ROUNDS > 0) report();
if (Object.keys(limits).length > 0) {
  console.log('\nlimits:', JSON.stringify(limits));
  console.log(`wrote ${writeResults('cold-local-limits', { env, delayMs: DELAY_MS, ...limits })}`);
}
