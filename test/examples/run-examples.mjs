// Runs each example in examples/ in place, with the command its README gives, as
// a user's project would use the package: `edgejwt` resolves through this
// package.json's `exports` and `imports` (a package may import itself by name),
// so the runtime's own export conditions pick the files in dist/ (built by
// `npm run build`) — no tsconfig `paths`, alias or copy stands in for them. The
// Worker gets JWT_SECRET from a dotenv file as with `.dev.vars` (`--env-file`, in
// the OS temp folder, so a .dev.vars of the user's is neither read nor touched).
// Each server starts on loopback; a valid token must get 200 with its `sub`, a
// token signed with another secret and a request without one must get 401 with a
// Bearer challenge; then the server is stopped. (The Worker answering 200 at all
// shows the workerd condition reached the .wasm-module loader: workerd refuses
// to compile Wasm bytes.) Last line: `[examples] passed=N failed=N`.
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/lib/free-port.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(join(tmpdir(), 'edgejwt-examples-'));
const bin = (name) => join(root, 'node_modules/.bin', name);
const START_TIMEOUT_MS = 90_000;

if (!existsSync(join(root, 'dist/index.js'))) {
  console.log('dist/ is missing: run `npm run build` first');
  console.log('[examples] passed=0 failed=1');
  process.exit(1);
}

const b64u = (buf) => Buffer.from(buf).toString('base64url');
function hs256(secret, claims) {
  const input = `${b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64u(JSON.stringify(claims))}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

const EXAMPLES = [
  // The commands of examples/README.md, plus a free port and (for wrangler) quiet logs.
  {
    name: 'deno',
    runtime: 'deno',
    command: (port) => [bin('deno'), ['run', '--allow-net', '--allow-env', 'main.ts'], { PORT: String(port) }],
  },
  { name: 'bun', runtime: 'bun', command: (port) => [bin('bun'), ['server.ts'], { PORT: String(port) }] },
  {
    name: 'hono-worker',
    runtime: 'workerd',
    command: (port, secret) => {
      const vars = join(work, 'hono-worker.dev.vars');
      writeFileSync(vars, `JWT_SECRET=${secret}\n`, { mode: 0o600 });
      return [
        bin('wrangler'),
        [
          'dev',
          '--ip',
          '127.0.0.1',
          '--port',
          String(port),
          '--inspector-port',
          '0',
          '--env-file',
          vars,
          '--log-level',
          'warn',
        ],
        {},
      ];
    },
  },
];

let passed = 0;
let failed = 0;

async function waitUntilUp(url, child) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited early with code ${child.exitCode}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new Error(`not answering after ${START_TIMEOUT_MS / 1000}s`);
}

async function expectStatus(label, url, headers, status, check) {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(15_000) });
  const body = await res.text();
  if (res.status !== status)
    throw new Error(`${label}: status ${res.status}, expected ${status}: ${body.slice(0, 200)}`);
  check?.(res, body);
}

for (const ex of EXAMPLES) {
  const dir = join(root, 'examples', ex.name);
  const port = await freePort();
  const secret = randomBytes(32).toString('base64url');
  const [cmd, args, env] = ex.command(port, secret);
  const started = Date.now();
  const child = spawn(cmd, args, {
    cwd: dir,
    // node_modules/.bin first: Wrangler needs the Node 22 of the `node` devDependency.
    env: {
      ...process.env,
      PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH}`,
      ...env,
      // The Worker reads only its dotenv file; the servers read the environment.
      ...(ex.runtime === 'workerd' ? {} : { JWT_SECRET: secret }),
      NO_COLOR: '1',
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      WRANGLER_HIDE_BANNER: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so the whole tree is stopped
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}/me`;
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: `user-${ex.name}`, aud: 'example', iat: now, exp: now + 300 };
  const checks = [
    [
      'valid token',
      () =>
        expectStatus('valid token', url, { authorization: `Bearer ${hs256(secret, claims)}` }, 200, (_res, body) => {
          const json = JSON.parse(body);
          if (json.sub !== claims.sub || json.runtime !== ex.runtime) throw new Error(`unexpected body ${body}`);
        }),
    ],
    [
      'token signed with another secret',
      () =>
        expectStatus(
          'bad signature',
          url,
          { authorization: `Bearer ${hs256(randomBytes(32), claims)}` },
          401,
          (res) => {
            if (!/^Bearer realm="example", error="invalid_token"/.test(res.headers.get('www-authenticate') ?? ''))
              throw new Error(`challenge: ${res.headers.get('www-authenticate')}`);
          },
        ),
    ],
    [
      'expired token',
      () =>
        expectStatus('expired', url, { authorization: `Bearer ${hs256(secret, { ...claims, exp: now - 60 })}` }, 401),
    ],
    [
      'no token',
      () =>
        expectStatus('no token', url, {}, 401, (res) => {
          if (!(res.headers.get('www-authenticate') ?? '').startsWith('Bearer realm="example"'))
            throw new Error('no Bearer challenge');
        }),
    ],
  ];
  try {
    await waitUntilUp(url, child);
    console.log(`${ex.name}: up in ${((Date.now() - started) / 1000).toFixed(1)}s on port ${port}`);
    for (const [name, fn] of checks) {
      try {
        await fn();
        passed++;
        console.log(`ok   ${ex.name}: ${name}`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${ex.name}: ${name}\n     ${e.message}`);
      }
    }
    if (failed > 0) console.log(`--- ${ex.name} output ---\n${output.slice(-3000)}`);
  } catch (e) {
    failed += checks.length;
    console.log(`FAIL ${ex.name}: did not start: ${e.message}\n${output.slice(-2000)}`);
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r) && setTimeout(r, 5000)));
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
}
rmSync(work, { recursive: true, force: true });
console.log(`[examples] passed=${passed} failed=${failed}`);
process.exitCode = failed > 0 ? 1 : 0;
