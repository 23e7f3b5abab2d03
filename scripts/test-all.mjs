// Everything `npm test` runs (and so CI): build the Wasm core and the package from
// source, then every suite: the type checks, the generated-file check, the import
// rules (dependency-cruiser), as-pect (AssemblyScript internals),
// Vitest in Node 22 and inside workerd, the shared corpus against the built
// package in Node 20 (the machine's Node), 22 (the devDependency) and 24 (the
// newest 24.x the registry serves, installed into build/node-24), Deno, Bun and
// headless Chromium, the npm pack check, the JSR check, the examples and the
// bench smoke. Each runner's own report is read back; the last line is the sum:
// `N passed, N failed`. A node script (not bash) so that it runs on Windows too.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const windows = process.platform === 'win32';
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_HIDE_BANNER: 'true' };
const REPORTS = 'build/reports';
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

let totalPassed = 0;
let totalFailed = 0;
const summary = [];
function record(name, passed, failed) {
  totalPassed += passed;
  totalFailed += failed;
  summary.push(`${name.padEnd(22)} ${String(passed).padStart(6)} passed ${String(failed).padStart(4)} failed`);
}
// Each step's wall time and the machine's 1-minute load average when it ended:
// printed with the summary, so a slow run says which step and under what load.
const timings = [];
let current;
const started = Date.now();
const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6);
function endStep() {
  if (current) timings.push(`${seconds(Date.now() - current.at)} s  load ${loadavg()[0].toFixed(1).padStart(4)}  ${current.title}`);
  current = undefined;
}
function step(title) {
  endStep();
  current = { title, at: Date.now() };
  console.log(`\n\x1b[1m== ${title} ==\x1b[0m`);
}
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * Runs a command with its output shown and, when `file` is given, kept there
 * too. Resolves to the exit code (a failure to start counts as 1). On Windows
 * through a shell, which is what starts npm's and npx's .cmd scripts.
 */
function run(cmd, args, file) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, shell: windows, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = file ? createWriteStream(file) : undefined;
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      from.on('data', (chunk) => {
        to.write(chunk);
        out?.write(chunk);
      });
    }
    child.on('error', (e) => {
      console.error(`${cmd}: ${e.message}`);
      out?.end();
      resolve(1);
    });
    child.on('close', (code) => {
      if (out) out.end(() => resolve(code ?? 1));
      else resolve(code ?? 1);
    });
  });
}

/** Runs a command that prints `passed=N failed=N` and records its last such line. */
async function reportRun(label, cmd, args) {
  const file = join(REPORTS, `${label.replace(/ /g, '-')}.txt`);
  await run(cmd, args, file);
  const lines = [...readFileSync(file, 'utf8').matchAll(/passed=(\d+) failed=(\d+)/g)];
  const last = lines.at(-1);
  if (last) record(label, Number(last[1]), Number(last[2]));
  else record(`${label} (no report)`, 0, 1);
}

const bin = (name) => join('node_modules', '.bin', windows ? `${name}.cmd` : name);

// The benches' peers (bench/package.json) are kept out of the library's
// dependencies; the type check and the bench smoke need them, so a fresh clone
// gets them here, once, from bench/package-lock.json (CI has already run this).
if (!existsSync(join('bench', 'node_modules', '.package-lock.json'))) {
  step('bench dependencies (npm --prefix bench ci: first run on this clone)');
  if ((await run('npm', ['--prefix', 'bench', 'ci', '--no-audit', '--no-fund', '--loglevel=error'])) !== 0) record('bench dependencies (npm ci failed)', 0, 1);
}

step('build (Wasm core from assembly/, TypeScript)');
if ((await run('npm', ['run', '--silent', 'build'])) !== 0) {
  console.log('build failed: nothing can be tested');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

step('typecheck (tsc --noEmit over src, test, bench; the type tests in test-d)');
if ((await run('npm', ['run', '--silent', 'typecheck'])) === 0) record('typecheck', 1, 0);
else record('typecheck', 0, 1);

// Every generated file (scripts/generated.mjs) equals what its generator writes now.
step('generated files (each generator re-run, output compared with the committed file)');
await reportRun('generated files', process.execPath, ['scripts/check-generated.mjs']);

// The import rules of docs/architecture.md: no circles (type-only imports included), the
// layers, the imports forbidden outright; dependency-cruiser with .dependency-cruiser.cjs.
// In Node 22 (the devDependency): dependency-cruiser does not run in Node 20.
step('import rules (dependency-cruiser: no circles, layers)');
await reportRun('import rules', bin('node'), ['scripts/check-imports.mjs']);

step('as-pect (AssemblyScript internals)');
{
  const file = join(REPORTS, 'as-pect.txt');
  await run('npx', ['asp', '--config', 'as-pect.config.js'], file);
  // as-pect prints "[Tests]: <passed> / <total>".
  const m = [...stripAnsi(readFileSync(file, 'utf8')).matchAll(/\[Tests\]:\s*(\d+)\s*\/\s*(\d+)/g)].at(-1);
  if (m) record('as-pect', Number(m[1]), Number(m[2]) - Number(m[1]));
  else record('as-pect (no report)', 0, 1);
}

async function vitestRun(name, config) {
  const json = join(REPORTS, `${name}.json`);
  await run('npx', ['vitest', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`]);
  if (!existsSync(json)) return record(`${name} (no report)`, 0, 1);
  const r = JSON.parse(readFileSync(json, 'utf8'));
  // A run that failed outside any test (a file that does not load) still fails.
  record(name, r.numPassedTests, !r.success && r.numFailedTests === 0 ? 1 : r.numFailedTests);
}

step(`Vitest in Node (shared corpus + Node-only tests)`);
await vitestRun('vitest-node', 'vitest.node.config.ts');

step('Vitest inside workerd (shared corpus + route guard)');
await vitestRun('vitest-workerd', 'vitest.workerd.config.ts');

step('Vitest inside workerd (the guard\'s Durable Objects, bound from test/worker-do/wrangler.toml)');
await vitestRun('vitest-workerd-do', 'vitest.workerd-do.config.ts');

step('shared corpus bundles');
rmSync('build/corpus', { recursive: true, force: true }); // a failed build must not leave old bundles to run
if ((await run(process.execPath, ['test/runtimes/build-corpus.mjs', 'node', 'deno', 'bun', 'browser'])) !== 0) {
  record('corpus bundles (build failed)', 0, 1);
}

/** The version a node binary reports, or undefined when it does not run. */
function versionOf(node) {
  const r = spawnSync(node, ['--version'], { shell: windows, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

// The machine's own Node (20 here), not the Node 22 that `npm run` puts first on PATH.
const systemNode = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => dir && !dir.includes('node_modules'))
  .map((dir) => join(dir, windows ? 'node.exe' : 'node'))
  .find((p) => existsSync(p));
if (systemNode) {
  const v = versionOf(systemNode);
  step(`shared corpus in Node ${v} (${systemNode})`);
  await reportRun(`corpus node-${v}`, systemNode, ['build/corpus/node.js']);
} else {
  record('corpus system node (none on PATH)', 0, 1);
}

const node22 = bin('node');
{
  const v = versionOf(node22);
  step(`shared corpus in Node ${v} (the node devDependency)`);
  await reportRun(`corpus node-${v}`, node22, ['build/corpus/node.js']);
}

// Node 24 is the active LTS: the newest 24.x the registry serves, from the `node`
// package (which ships the binary), kept in build/node-24 between runs. npm
// re-resolves `node@24` each time, so a newer 24.x replaces the kept one.
step('shared corpus in Node 24 (npm package node@24 in build/node-24)');
mkdirSync('build/node-24', { recursive: true });
const node24 = join('build', 'node-24', bin('node'));
const installed = await run('npm', ['install', '--prefix', 'build/node-24', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', 'node@24'], join('build', 'node-24.log'));
if (installed === 0 && existsSync(node24)) {
  const v = versionOf(node24);
  await reportRun(`corpus node-${v}`, node24, ['build/corpus/node.js']);
} else {
  record('corpus node-24 (install failed)', 0, 1);
}

step('shared corpus in Deno');
await reportRun('corpus deno', 'npx', ['deno', 'run', '--allow-read', '--allow-env', 'build/corpus/deno.js']);

step('shared corpus in Bun');
await reportRun('corpus bun', 'npx', ['bun', 'build/corpus/bun.js']);

step('shared corpus in headless Chromium');
await reportRun('corpus chromium', process.execPath, ['test/runtimes/run-browser.mjs', 'build/corpus/browser.js']);

// The pack check, the JSR check and the examples print `[name] passed=N failed=N` like the corpus runners.
step('npm pack check (a fresh tree packed through prepack: contents, size, .wasm vs a fresh build, types per condition)');
await reportRun('npm pack check', process.execPath, ['scripts/pack-check.mjs']);

step('JSR package (jsr.json vs package.json, deno publish --dry-run, the source graph in Deno)');
await reportRun('jsr check', process.execPath, ['scripts/jsr-check.mjs']);

step('examples (Deno.serve, Bun.serve, Hono on Workers) run in place, as examples/README.md says');
await reportRun('examples', process.execPath, ['test/examples/run-examples.mjs']);

// Each bench (bench/smoke.ts) in a seconds-long mode: 1 passed per bench that completes.
step('bench smoke (every bench in seconds; timings are never asserted)');
// Node 22 (the devDependency) runs the bench .ts files by type stripping.
await reportRun('bench smoke', node22, ['bench/smoke.ts']);

endStep();
step('step timings (wall seconds, 1-minute load average at the step\'s end, 2 cores)');
console.log(timings.join('\n'));
console.log(`${seconds(Date.now() - started)} s  in all`);
step('summary');
console.log(summary.join('\n'));
console.log(`${totalPassed} passed, ${totalFailed} failed`);
process.exitCode = totalFailed === 0 ? 0 : 1;
