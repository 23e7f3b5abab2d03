// The load bench: the guard under `wrangler dev --env dev` (the demo issuer, the
// echo origin, its L1 and KV caches as configured there) on loopback, driven by
// autocannon with a bounded number of requests and a time cap. Three runs: the
// public path (the floor: no token), 0% bad tokens, 50% bad tokens (forged,
// expired, wrong audience, malformed, in turn). Valid tokens are distinct and
// cycle through more sessions than the L1 holds. Every response is checked:
// valid ones must be 200, bad ones 401.
// Then the same load straight against workerd (Miniflare on a port, no wrangler
// proxy), one Worker at a time: a no-op Worker (the floor), the guard with the
// default cache settings (L1 only) and a guard built on jose (isolate/jose-guard.ts)
// with the same issuer, so the guard's own cost shows beside a peer's.
// Run: node bench/guard/load.ts   (BENCH_SMOKE=1: a few hundred requests)
import { spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
// @ts-ignore -- autocannon ships no types and @types/autocannon is not installed
import autocannon from 'autocannon';
import { Miniflare } from 'miniflare';
import { smoke } from '../lib/harness.ts';
import { bundle } from './isolate/build.ts';
import { environment, printEnvironment, writeResults, packageVersion } from '../lib/env.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const AMOUNT = smoke ? 300 : 5000;
const WARMUP = smoke ? 100 : 500;
// Straight against workerd a run of 5,000 takes about 2 s: four times that for a steadier rate.
const DIRECT_AMOUNT = smoke ? 300 : 20000;
const CONNECTIONS = 10;
const TIME_CAP_S = smoke ? 20 : 60;
const VALID_POOL = smoke ? 200 : 3000;
const ISSUER = 'https://demo-issuer.edgejwt.invalid';
const AUDIENCE = 'edgejwt-demo';

const b64u = (s: string | Buffer) => Buffer.from(s).toString('base64url');

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

// Tokens from the committed demo issuer key (DEV ONLY, as `npm run token` does).
const jwk = JSON.parse(readFileSync(join(root, 'dev/demo-issuer.private.jwk.json'), 'utf8')) as Record<string, string>;
delete jwk._warning;
const demoKey = createPrivateKey({ key: jwk as never, format: 'jwk' });
const strangerKey = generateKeyPairSync('ed25519').privateKey;
function mint(key: KeyObject, claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const input =
    `${b64u(JSON.stringify({ alg: 'EdDSA', kid: jwk.kid, typ: 'JWT' }))}.` +
    `${b64u(JSON.stringify({ iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 3600, scope: 'read', ...claims }))}`;
  return `${input}.${b64u(sign(null, Buffer.from(input), key))}`;
}
const valid = Array.from({ length: VALID_POOL }, (_, i) => mint(demoKey, { sub: `user-${i}` }));
const badMakers = [
  (i: number) => mint(strangerKey, { sub: `forged-${i}` }),
  (i: number) => mint(demoKey, { sub: `late-${i}`, exp: Math.floor(Date.now() / 1000) - 3600 }),
  (i: number) => mint(demoKey, { sub: `other-${i}`, aud: 'someone-else' }),
  (i: number) => `${b64u('{"alg":"EdDSA"')}.${b64u(`{"sub":"broken-${i}"`)}.AAAA`,
];
const bad = Array.from({ length: 2000 }, (_, i) => badMakers[i % badMakers.length]!(i));

async function startGuard(port: number): Promise<ChildProcess> {
  // Under this Node (22): wrangler refuses older ones, and a bare `wrangler` would take PATH's node.
  const child = spawn(
    process.execPath,
    [
      join(root, 'node_modules/wrangler/bin/wrangler.js'),
      'dev',
      '--env',
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--log-level',
      'error',
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_HIDE_BANNER: 'true',
        CI: 'true',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true, // its own process group, so workerd goes with it
    },
  );
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      await res.arrayBuffer();
      if (res.status === 200) return child;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  stopGuard(child);
  throw new Error('wrangler dev did not answer /health within 120 s');
}

function stopGuard(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
}

interface Run {
  name: string;
  requests: number;
  durationS: number;
  /** Completed requests over the run's wall time. */
  throughput: number;
  reqPerSec: { mean: number; p50: number; min: number };
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  status: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Responses whose status did not match the token sent (must be 0). */
  wrong: number;
}

async function run(
  name: string,
  port: number,
  badShare: number,
  path = '/api/orders',
  amount = AMOUNT,
  check = true,
): Promise<Run> {
  let sent = 0;
  let wrong = 0;
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    amount,
    timeout: 10,
    requests: [
      {
        method: 'GET',
        path,
        setupRequest: (req: { headers?: Record<string, string> }, context: { expect?: number }) => {
          const i = sent++;
          // Bad tokens at evenly spread positions, so the share holds over any window.
          const isBad = badShare > 0 && Math.floor((i + 1) * badShare) !== Math.floor(i * badShare);
          const token = path === '/health' ? undefined : isBad ? bad[i % bad.length] : valid[i % valid.length];
          // A connection has one request in flight: its response reads this back.
          context.expect = !check ? undefined : isBad ? 401 : 200;
          return {
            ...req,
            headers: { ...(req.headers ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          };
        },
        onResponse: (status: number, _body: string, context: { expect?: number }) => {
          if (context.expect !== undefined && context.expect !== status) wrong++;
        },
      },
    ],
  } as never);
  const started = performance.now();
  const cap = setTimeout(() => (instance as unknown as { stop(): void }).stop(), TIME_CAP_S * 1000);
  const r = (await instance) as unknown as {
    requests: { mean: number; p50: number; min: number; total: number };
    latency: { p50: number; p90: number; p99: number; max: number; mean: number };
    duration: number;
    errors: number;
    timeouts: number;
    statusCodeStats?: Record<string, { count: number }>;
  };
  // autocannon's own duration is in whole seconds: too coarse for a run of a few seconds.
  const seconds = (performance.now() - started) / 1000;
  clearTimeout(cap);
  const status = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, v.count]));
  return {
    name,
    requests: Object.values(status).reduce((a, b) => a + b, 0),
    durationS: seconds,
    throughput: Object.values(status).reduce((a, b) => a + b, 0) / seconds,
    reqPerSec: { mean: r.requests.mean, p50: r.requests.p50, min: r.requests.min },
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: r.latency.mean },
    status,
    errors: r.errors,
    timeouts: r.timeouts,
    wrong,
  };
}

const env = environment(['autocannon']);
env.wrangler = (
  JSON.parse(readFileSync(join(root, 'node_modules/wrangler/package.json'), 'utf8')) as { version: string }
).version;
env.workerdUnderWrangler = (
  JSON.parse(readFileSync(join(root, 'node_modules/workerd/package.json'), 'utf8')) as { version: string }
).version;
env.miniflare = packageVersion('miniflare');
env.workerd = packageVersion('workerd');
env.jose = packageVersion('jose');
printEnvironment(env);
const port = await freePort();
process.stderr.write(`[load] starting wrangler dev --env dev on 127.0.0.1:${port}…\n`);
const child = await startGuard(port);
// Interrupted (Ctrl-C, a CI timeout): take wrangler and its workerd down too.
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    stopGuard(child);
    process.exit(130);
  });
const runs: Run[] = [];
try {
  process.stderr.write('[load] warm-up (public path and valid tokens)…\n');
  await run('warm-up', port, 0, '/api/orders', WARMUP);
  for (const [name, share, path] of [
    ['public path (no token): the floor', 0, '/health'],
    ['0% bad tokens', 0, undefined],
    ['50% bad tokens', 0.5, undefined],
  ] as const) {
    process.stderr.write(`[load] ${name}: ${AMOUNT} requests, ${CONNECTIONS} connections, cap ${TIME_CAP_S} s…\n`);
    runs.push(await run(name, port, share, path));
  }
} finally {
  stopGuard(child);
}

// Straight against workerd: the dev issuer's keys inline, default caches (L1 only), no CACHE_KEY.
const devConfig = /GUARD_CONFIG = '''([\s\S]*?)'''/.exec(readFileSync(join(root, 'wrangler.toml'), 'utf8'))![1]!;
const direct = JSON.parse(devConfig) as Record<string, unknown>;
delete direct.admin;
direct.cache = { jwks: true };
// The dev config's DPoP replay store is a Durable Object wrangler dev binds; this bare
// Miniflare binds none, so the replay keys stay in the isolate here (the bench sends no DPoP).
if (direct.dpop !== undefined) direct.dpop = { ...(direct.dpop as Record<string, unknown>), replay: 'isolate' };
const directRuns: Run[] = [];
for (const kind of ['noop', 'guard', 'jose'] as const) {
  const b = await bundle(kind);
  const p = await freePort();
  const mf = new Miniflare({
    host: '127.0.0.1',
    port: p,
    modules: true,
    scriptPath: b.file,
    modulesRoot: b.dir,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: '2026-04-01',
    bindings: { GUARD_CONFIG: JSON.stringify(direct) },
    kvNamespaces: ['VERIFY_CACHE', 'JWKS_CACHE'],
    handleRuntimeStdio: (out: NodeJS.ReadableStream, err: NodeJS.ReadableStream) => {
      out.resume();
      err.resume();
    },
  });
  const url = await mf.ready;
  const port2 = Number(url.port);
  try {
    await run('warm-up', port2, 0, '/api/orders', WARMUP);
    const cases: [string, number, string | undefined][] =
      kind === 'noop'
        ? [['no-op Worker: the floor', 0, undefined]]
        : kind === 'guard'
          ? [
              ['guard: public path', 0, '/health'],
              ['guard: 0% bad tokens', 0, undefined],
              ['guard: 50% bad tokens', 0.5, undefined],
            ]
          : [
              ['jose guard: 0% bad tokens', 0, undefined],
              ['jose guard: 50% bad tokens', 0.5, undefined],
            ];
    for (const [name, share, path] of cases) {
      process.stderr.write(`[load] workerd direct, ${name}…\n`);
      // The no-op answers 200 to anything: only the guards are checked for the right status.
      const r = await run(name, port2, share, path, DIRECT_AMOUNT, kind !== 'noop');
      directRuns.push(r);
    }
  } finally {
    await mf.dispose();
  }
}

const floor = directRuns[0]!.throughput;
const directLines = [
  `### Straight against workerd (Miniflare on a port, no wrangler proxy), ${CONNECTIONS} connections, ` +
    `${DIRECT_AMOUNT} requests per run; default caches (L1 only)`,
  '',
  '| run | requests | req/s | × no-op | p50 ms | p90 ms | p99 ms | statuses | errors | wrong status |',
  '|---|---:|---:|---:|---:|---:|---:|---|---:|---:|',
  ...directRuns.map(
    (r) =>
      `| ${r.name} | ${r.requests} | ${Math.round(r.throughput).toLocaleString('en-US')} | ` +
      `${(r.throughput / floor).toFixed(2)} | ${r.latencyMs.p50} | ${r.latencyMs.p90} | ${r.latencyMs.p99} | ` +
      `${Object.entries(r.status)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')} | ${r.errors + r.timeouts} | ${r.wrong} |`,
  ),
];

const lines = [
  `### wrangler dev on loopback, autocannon (${CONNECTIONS} connections, ${AMOUNT} requests per run, ` +
    `${VALID_POOL} distinct valid tokens cycling)`,
  '',
  '| run | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | statuses | errors | wrong status |',
  '|---|---:|---:|---:|---:|---:|---:|---|---:|---:|',
  ...runs.map(
    (r) =>
      `| ${r.name} | ${r.requests} | ${Math.round(r.throughput).toLocaleString('en-US')} | ` +
      `${r.latencyMs.p50} | ${r.latencyMs.p90} | ${r.latencyMs.p99} | ${r.latencyMs.max} | ${Object.entries(r.status)
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')} | ${r.errors + r.timeouts} | ${r.wrong} |`,
  ),
];
console.log('\n' + lines.join('\n') + '\n\n' + directLines.join('\n') + '\n');
console.log(
  'wrote ' +
    writeResults('load', {
      env,
      connections: CONNECTIONS,
      amount: AMOUNT,
      directAmount: DIRECT_AMOUNT,
      validPool: VALID_POOL,
      runs,
      directRuns,
    }),
);
const failed = [...runs, ...directRuns].some((r) => r.wrong > 0 || r.errors > 0);
if (failed) {
  console.error('load bench: some responses had the wrong status or failed (see the table)');
  process.exitCode = 1;
}
