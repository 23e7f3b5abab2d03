// The nothing-injected suite (issue 33 item 2, issue 37 item 4): edgejwt as a user
// runs it, with each runtime's own fetch, streams and Workers objects; nothing
// injected, nothing mocked. One issuer/origin server on 127.0.0.1 (issuer.mjs) for
// every runtime; everything started here runs at once and is stopped by a deadline.
//   - app.mjs through cases.mjs in Node (this one, the machine's and Node 24, installed into
//     build/node-24 when missing: scripts/lib/node-24.mjs), Deno and Bun (in-process.mjs)
//     and in workerd under `wrangler dev` (worker/, service binding included);
//   - the library's and hono's cases in headless Chromium (browser.mjs, bundled here with the
//     `browser` condition, its page served by the issuer); the guard's are a server's. No
//     Chromium: "not run" (a failure under CI=true), as the browser corpus;
//   - examples/plain-worker from a fresh install of the packed tarball under
//     `wrangler dev`: a valid RS256 token 200, a forged one and none 401.
// A runtime that reports fewer cases than it was given fails them all.
// Needs dist/ (`npm run build`). Last line: `[no-fakes] passed=N failed=N`.
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildCases, runCases } from './cases.mjs';
import { startIssuer } from './issuer.mjs';
import { bin, children, env, root, start, stop, wranglerDev } from './processes.mjs';
import { ensureNode24 } from '../../scripts/lib/node-24.mjs';
import { installHint, startHeadlessChromium } from '../runtimes/chromium.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const windows = process.platform === 'win32';
const DEADLINE_MS = 120_000; // every child is stopped by then, whatever it is doing
const startedAt = Date.now();

if (!existsSync(join(root, 'dist/index.js'))) {
  console.log('dist/ is missing: run `npm run build` first');
  console.log('[no-fakes] passed=0 failed=1');
  process.exit(1);
}

const deadline = setTimeout(() => {
  console.log(`deadline of ${DEADLINE_MS / 1000}s passed: stopping what still runs`);
  for (const c of children) stop(c);
}, DEADLINE_MS);

/** Runs `body`, which resolves to { passed, failed }; a throw counts as `expected` failures. */
async function part(name, expected, body) {
  try {
    return await body();
  } catch (e) {
    console.log(`FAIL ${name}: ${e.message}`);
    return { passed: 0, failed: expected };
  }
}

const issuer = await startIssuer();
const cases = await buildCases(issuer.tokens);
const everywhere = cases.filter((c) => !c.workerdOnly);

// The machine's own Node (20 in CI) besides the one running this (npm test's: the Node 22 devDependency).
const machineNode = (process.env.PATH ?? '')
  .split(windows ? ';' : ':')
  .filter((dir) => dir && !dir.includes('node_modules'))
  .map((dir) => join(dir, windows ? 'node.exe' : 'node'))
  .find((p) => existsSync(p));
const nodes = [process.execPath];
if (machineNode && realpathSync(machineNode) !== realpathSync(process.execPath)) nodes.push(machineNode);
// npm test's Node 24 step may be installing it right now: ensureNode24 waits for that install.
const installNode24 = (cmd, args) =>
  start(cmd, args).done.then(({ code, output }) => {
    if (code !== 0) process.stdout.write(output);
    return code;
  });
const node24 = ensureNode24(root, { refresh: false, run: installNode24 });

/** Node, Deno or Bun running in-process.mjs, which prints its lines and `<runtime>: N passed, N failed`. */
function inProcess(label, runtime, command, args = []) {
  return part(label, everywhere.length, async () => {
    const noFakes = JSON.stringify({ base: issuer.base, tokens: issuer.tokens });
    const child = start(await command, [...args, join(here, 'in-process.mjs')], { env: { ...env, NO_FAKES: noFakes } });
    const { output } = await child.done;
    process.stdout.write(output);
    const m = [...output.matchAll(new RegExp(`^${runtime}[ v\\d.]*: (\\d+) passed, (\\d+) failed$`, 'gm'))].at(-1);
    if (!m || Number(m[1]) + Number(m[2]) !== everywhere.length) throw new Error('no report line for every case');
    return { passed: Number(m[1]), failed: Number(m[2]) };
  });
}
const inProcessRuns = [
  ...nodes.map((node) => inProcess('node', 'node', node)),
  inProcess('node 24', 'node', node24),
  inProcess('deno', 'deno', bin('deno'), ['run', '--allow-net=127.0.0.1', '--allow-env=NO_FAKES', '--allow-read']),
  inProcess('bun', 'bun', bin('bun')),
];

// Headless Chromium: browser.mjs in a page the issuer serves, so the key set is same-origin.
const inBrowser = everywhere.filter((c) => !c.serverOnly);
const PAGE =
  '<!doctype html><meta charset="utf-8"><title>no fakes</title><script type="module" src="/no-fakes.js"></script>';
const chromium = part('chromium', inBrowser.length, async () => {
  const bundled = await build({
    entryPoints: [join(here, 'browser.mjs')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  issuer.serve('/no-fakes.js', 'text/javascript; charset=utf-8', bundled.outputFiles[0].contents);
  issuer.serve('/no-fakes.html', 'text/html; charset=utf-8', PAGE);
  const launched = await startHeadlessChromium();
  if (launched.notRun) {
    const why = `no Chromium could be launched: ${launched.notRun.join('; ')}; install one: ${installHint()}`;
    if (process.env.CI === 'true') throw new Error(`${why} (CI=true requires one)`);
    console.log('[no-fakes chromium] not run: no Chromium could be launched');
    for (const reason of launched.notRun) console.log(`  ${reason}`);
    console.log(`  install one: ${installHint()}`);
    return { passed: 0, failed: 0 };
  }
  const lines = [`chromium ${launched.browser.browser()?.version() ?? ''} (${launched.path})`];
  try {
    const tab = launched.browser.pages()[0] ?? (await launched.browser.newPage());
    tab.on('console', (msg) => lines.push(msg.text()));
    tab.on('pageerror', (err) => lines.push(`page error: ${err.message}`));
    await tab.goto(`${issuer.base}/no-fakes.html#${encodeURIComponent(JSON.stringify(issuer.tokens))}`);
    const timeout = Math.max(1000, DEADLINE_MS - (Date.now() - startedAt) - 5000);
    await tab.waitForFunction(() => globalThis.__noFakes !== undefined, undefined, { timeout, polling: 200 });
    const counts = await tab.evaluate(() => globalThis.__noFakes);
    if (counts.passed + counts.failed !== inBrowser.length) throw new Error('no report for every case');
    return counts;
  } finally {
    process.stdout.write(`${lines.join('\n')}\n`);
    await launched.close();
  }
});

// workerd: the suite's Worker, the same cases over HTTP, service binding included.
const workerd = part('workerd', cases.length, async () => {
  const { child, url } = await wranglerDev(join(here, 'worker'), { ISSUER: issuer.base });
  try {
    return await runCases('workerd', cases, url, (req) => fetch(req));
  } finally {
    stop(child);
  }
});

// The plain-Worker example, installed from the packed tarball into a temp copy.
const EXAMPLE_CHECKS = 3;
const example = part('plain-worker', EXAMPLE_CHECKS, async () => {
  const work = mkdtempSync(join(tmpdir(), 'edgejwt-plain-worker-'));
  let dev;
  try {
    // dist/ is already built (npm test builds first): pack it as is, without prepack's rebuild.
    const pack = await start('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work]).done;
    const tarball = pack.output.trim().split('\n').at(-1);
    if (pack.code !== 0 || !tarball.endsWith('.tgz')) throw new Error(`npm pack failed:\n${pack.output}`);
    const app = join(work, 'plain-worker');
    cpSync(join(root, 'examples/plain-worker'), app, { recursive: true });
    // The tarball has no dependencies: nothing to ask a registry for.
    const installArgs = ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, tarball)];
    const install = await start('npm', installArgs, { cwd: app }).done;
    if (install.code !== 0) throw new Error(`npm install of the tarball failed:\n${install.output}`);
    const vars = { ISSUER: issuer.base, JWKS_URL: `${issuer.base}/jwks.json`, AUDIENCE: 'api' };
    dev = await wranglerDev(app, vars);
    const { child, url } = dev;
    try {
      const checks = [
        {
          name: 'example_plain_worker_remote_rs256_200',
          request: (u) => new Request(`${u}/`, { headers: { authorization: `Bearer ${issuer.tokens.RS256}` } }),
          check: (res, text) =>
            res.status === 200 && JSON.parse(text).sub === 'alice'
              ? undefined
              : `status ${res.status}: ${text.slice(0, 200)}`,
        },
        {
          name: 'example_plain_worker_forged_401',
          request: (u) => new Request(`${u}/`, { headers: { authorization: `Bearer ${issuer.tokens.forged}` } }),
          check: (res, text) => (res.status === 401 ? undefined : `status ${res.status}: ${text.slice(0, 200)}`),
        },
        {
          name: 'example_plain_worker_no_token_401',
          request: (u) => new Request(`${u}/`),
          check: (res, text) =>
            res.status === 401 && /^Bearer realm="example"/.test(res.headers.get('www-authenticate') ?? '')
              ? undefined
              : `status ${res.status}: ${text.slice(0, 200)}`,
        },
      ];
      const r = await runCases('plain-worker', checks, url, (req) => fetch(req));
      if (r.failed > 0) console.log(`--- plain-worker output ---\n${child.output().slice(-2000)}`);
      return r;
    } finally {
      stop(child);
    }
  } finally {
    if (dev) await dev.child.done; // workerd has let go of the folder
    rmSync(work, { recursive: true, force: true });
  }
});

const results = await Promise.all([...inProcessRuns, chromium, workerd, example]);
clearTimeout(deadline);
for (const c of children) stop(c);
await issuer.close();
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`[no-fakes] passed=${passed} failed=${failed}`);
process.exitCode = failed === 0 ? 0 : 1;
