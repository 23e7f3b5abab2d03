// Everything `npm test` runs (and so CI): build the Wasm core and the package from
// source, then every suite: the type checks, the generated-file check, the import
// rules (dependency-cruiser), as-pect (AssemblyScript internals),
// Vitest in Node 22 and inside workerd, the shared corpus against the built
// package in Node 20 (the machine's Node), 22 (the devDependency) and 24 (the
// newest 24.x the registry serves, installed into build/node-24), Deno, Bun and
// headless Chromium, the npm pack check, the JSR check, the examples, the
// nothing-injected suite (test/no-fakes) and the
// bench smoke. Each runner's own report is read back; the last line is the sum:
// `N passed, N failed`. A node script (not bash) so that it runs on Windows too.
//
// The build, the generated-file check (it rewrites committed files for a moment)
// and the corpus bundles run first, one after another; then the suites run as
// jobs, EDGEJWT_TEST_JOBS at a time (default: the number of cores, at most 4),
// longest first. A job's output is kept and printed whole when it ends, so the
// log reads step by step; the summary keeps the order of the list below.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNode24 } from './lib/node-24.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const windows = process.platform === 'win32';
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
};
const REPORTS = 'build/reports';
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });
// CI (.ci/run) installs every tool: there a suite that cannot run is a failure.
const CI = process.env.CI === 'true';
const JOBS = Math.max(1, Number(process.env.EDGEJWT_TEST_JOBS) || Math.min(4, availableParallelism()));

const started = Date.now();
const seconds = (ms) => (ms / 1000).toFixed(1).padStart(6);
const heading = (title) => `\n\x1b[1m== ${title} ==\x1b[0m\n`;
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
const bin = (name) => join('node_modules', '.bin', windows ? `${name}.cmd` : name);

/**
 * One step: its title, its output (printed live, or kept until it ends when
 * `quiet`), its summary rows and its wall time with the 1-minute load average
 * at its end, so a slow run says which step and under what load.
 */
class Step {
  rows = [];
  constructor(title, quiet) {
    this.title = title;
    this.quiet = quiet;
    this.kept = [];
    this.at = Date.now();
    if (quiet) this.kept.push(heading(title));
    else process.stdout.write(heading(title));
  }
  write(chunk, toErr) {
    if (this.quiet) this.kept.push(chunk);
    else (toErr ? process.stderr : process.stdout).write(chunk);
  }
  record(name, passed, failed, notRun) {
    this.rows.push({ name, passed, failed, notRun });
  }
  end() {
    this.ms = Date.now() - this.at;
    this.load = loadavg()[0];
    if (this.quiet) process.stdout.write(this.kept.join(''));
    this.kept = [];
    process.stdout.write(
      `-- ${this.title.split(' (')[0]}: ${(this.ms / 1000).toFixed(1)} s, load ${this.load.toFixed(1)}\n`,
    );
  }
}
const steps = [];

/**
 * Runs a command with its output given to `step` and, when `file` is given, kept
 * there too. Resolves to the exit code (a failure to start counts as 1). On
 * Windows through a shell, which is what starts npm's and npx's .cmd scripts.
 */
function run(step, cmd, args, file) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, shell: windows, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = file ? createWriteStream(file) : undefined;
    for (const [from, toErr] of [
      [child.stdout, false],
      [child.stderr, true],
    ]) {
      from.on('data', (chunk) => {
        step.write(chunk, toErr);
        out?.write(chunk);
      });
    }
    child.on('error', (e) => {
      step.write(`${cmd}: ${e.message}\n`, true);
      out?.end();
      resolve(1);
    });
    child.on('close', (code) => {
      if (out) out.end(() => resolve(code ?? 1));
      else resolve(code ?? 1);
    });
  });
}

/**
 * Runs a command that prints `passed=N failed=N` and records its last such line. A runner
 * that could not run for want of an optional tool prints `[name] not run: <why>` and the lines
 * after it (what it tried, how to install it): a "not run" row, a failure under CI=true. A
 * runner that ran all but one part (no-fakes without Chromium) prints both: two rows.
 */
async function reportRun(step, label, cmd, args) {
  const file = join(REPORTS, `${label.replace(/ /g, '-')}.txt`);
  await run(step, cmd, args, file);
  const text = readFileSync(file, 'utf8');
  const notRun = /\[([^\]\n]*)\] not run: .*(\n {2}.*)*/.exec(text);
  const last = [...text.matchAll(/passed=(\d+) failed=(\d+)/g)].at(-1);
  if (last) step.record(label, Number(last[1]), Number(last[2]));
  if (notRun) step.record(last ? notRun[1] : label, 0, CI ? 1 : 0, notRun[0].slice(notRun[1].length + 3));
  else if (!last) step.record(`${label} (no report)`, 0, 1);
}

async function vitestRun(step, name, config) {
  const json = join(REPORTS, `${name}.json`);
  await run(step, 'npx', [
    'vitest',
    'run',
    '--config',
    config,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${json}`,
  ]);
  if (!existsSync(json)) return step.record(`${name} (no report)`, 0, 1);
  const r = JSON.parse(readFileSync(json, 'utf8'));
  // A run that failed outside any test (a file that does not load) still fails.
  step.record(name, r.numPassedTests, !r.success && r.numFailedTests === 0 ? 1 : r.numFailedTests);
}

/** A step run on its own, its output live. */
async function serial(title, body) {
  const step = new Step(title, false);
  steps.push(step);
  await body(step);
  step.end();
  return step;
}

// ---- first, one after another ----

// The benches' peers (bench/package.json) are kept out of the library's
// dependencies; the type check and the bench smoke need them, so a fresh clone
// gets them here, once, from bench/package-lock.json (CI has already run this).
if (!existsSync(join('bench', 'node_modules', '.package-lock.json'))) {
  await serial('bench dependencies (npm --prefix bench ci: first run on this clone)', async (s) => {
    if ((await run(s, 'npm', ['--prefix', 'bench', 'ci', '--no-audit', '--no-fund', '--loglevel=error'])) !== 0)
      s.record('bench dependencies (npm ci failed)', 0, 1);
  });
}

const build = await serial('build (Wasm core from assembly/, TypeScript)', async (s) => {
  s.code = await run(s, 'npm', ['run', '--silent', 'build']);
});
if (build.code !== 0) {
  console.log('build failed: nothing can be tested');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// Every generated file (scripts/generated.mjs) equals what its generator writes now.
// Alone: it puts each generator's output in place of the committed file for a moment.
await serial('generated files (each generator re-run, output compared with the committed file)', (s) =>
  reportRun(s, 'generated files', process.execPath, ['scripts/check-generated.mjs']),
);

await serial('shared corpus bundles (test/shared against dist/, one bundle per runtime)', async (s) => {
  rmSync('build/corpus', { recursive: true, force: true }); // a failed build must not leave old bundles to run
  if ((await run(s, process.execPath, ['test/runtimes/build-corpus.mjs', 'node', 'deno', 'bun', 'browser'])) !== 0) {
    s.record('corpus bundles (build failed)', 0, 1);
  }
});

// ---- then the suites, JOBS at a time ----

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
const systemVersion = systemNode && versionOf(systemNode);
const node22 = bin('node');
const node22Version = versionOf(node22);

// In the order of the summary; `order` is when each starts (longest first, so
// the last job to end is a short one). Seconds are from a quiet 2-core run.
const SUITES = [
  {
    order: 5, // ~40 s
    title: 'typecheck (tsc --noEmit over src, test, bench; the type tests in test-d)',
    body: async (s) =>
      s.record('typecheck', ...((await run(s, 'npm', ['run', '--silent', 'typecheck'])) === 0 ? [1, 0] : [0, 1])),
  },
  // The import rules of docs/architecture.md: no circles (type-only imports included), the
  // layers, the imports forbidden outright; dependency-cruiser with .dependency-cruiser.cjs.
  // In Node 22 (the devDependency): dependency-cruiser does not run in Node 20.
  {
    order: 12,
    title: 'import rules (dependency-cruiser: no circles, layers)',
    body: (s) => reportRun(s, 'import rules', node22, ['scripts/check-imports.mjs']),
  },
  {
    order: 11,
    title: 'as-pect (AssemblyScript internals)',
    body: async (s) => {
      const file = join(REPORTS, 'as-pect.txt');
      await run(s, 'npx', ['asp', '--config', 'as-pect.config.js'], file);
      // as-pect prints "[Tests]: <passed> / <total>".
      const m = [...stripAnsi(readFileSync(file, 'utf8')).matchAll(/\[Tests\]:\s*(\d+)\s*\/\s*(\d+)/g)].at(-1);
      if (m) s.record('as-pect', Number(m[1]), Number(m[2]) - Number(m[1]));
      else s.record('as-pect (no report)', 0, 1);
    },
  },
  {
    order: 1,
    title: 'Vitest in Node (shared corpus + Node-only tests)',
    body: (s) => vitestRun(s, 'vitest-node', 'vitest.node.config.ts'),
  },
  {
    order: 2,
    title: 'Vitest inside workerd (shared corpus + route guard)',
    body: (s) => vitestRun(s, 'vitest-workerd', 'vitest.workerd.config.ts'),
  },
  {
    order: 10,
    title: "Vitest inside workerd (the guard's Durable Objects, bound from test/worker-do/wrangler.toml)",
    body: (s) => vitestRun(s, 'vitest-workerd-do', 'vitest.workerd-do.config.ts'),
  },
  {
    order: 6,
    title:
      `shared corpus in Node ${systemVersion ?? '(none on PATH)'} (the machine's Node` +
      `${systemNode ? `, ${systemNode}` : ''})`,
    body: (s) =>
      systemVersion
        ? reportRun(s, `corpus node-${systemVersion}`, systemNode, ['build/corpus/node.js'])
        : s.record('corpus system node (none on PATH)', 0, 1),
  },
  {
    order: 7,
    title: `shared corpus in Node ${node22Version} (the node devDependency)`,
    body: (s) => reportRun(s, `corpus node-${node22Version}`, node22, ['build/corpus/node.js']),
  },
  // Node 24 (scripts/lib/node-24.mjs): re-installed on each run, so a newer 24.x
  // replaces the kept one; test/no-fakes installs it only when it is missing.
  {
    order: 4,
    title: 'shared corpus in Node 24 (npm package node@24 in build/node-24)',
    body: async (s) => {
      const log = join('build', 'node-24.log');
      const install = (cmd, args) => run(s, cmd, args, log);
      const failed = (e) => s.write(`${e.message}\n`, true); // the install's output is above it
      const node24 = await ensureNode24(root, { refresh: true, run: install }).catch(failed);
      if (node24) await reportRun(s, `corpus node-${versionOf(node24)}`, node24, ['build/corpus/node.js']);
      else s.record('corpus node-24 (install failed)', 0, 1);
    },
  },
  {
    order: 8,
    title: 'shared corpus in Deno',
    body: (s) =>
      reportRun(s, 'corpus deno', 'npx', ['deno', 'run', '--allow-read', '--allow-env', 'build/corpus/deno.js']),
  },
  {
    order: 9,
    title: 'shared corpus in Bun',
    body: (s) => reportRun(s, 'corpus bun', 'npx', ['bun', 'build/corpus/bun.js']),
  },
  {
    order: 3,
    title: 'shared corpus in headless Chromium',
    body: (s) =>
      reportRun(s, 'corpus chromium', process.execPath, ['test/runtimes/run-browser.mjs', 'build/corpus/browser.js']),
  },
  // The pack check, the JSR check and the examples print `[name] passed=N failed=N` like the corpus runners.
  {
    order: 13,
    title:
      'npm pack check (a fresh tree packed through prepack: contents, size, .wasm vs the build above, types ' +
      'per condition)',
    body: (s) => reportRun(s, 'npm pack check', process.execPath, ['scripts/pack-check.mjs']),
  },
  {
    order: 14,
    title: 'JSR package (jsr.json vs package.json, deno publish --dry-run, the source graph in Deno)',
    body: (s) => reportRun(s, 'jsr check', process.execPath, ['scripts/jsr-check.mjs']),
  },
  {
    order: 15,
    title: 'examples (Deno.serve, Bun.serve, Hono on Workers) run in place, as examples/README.md says',
    body: (s) => reportRun(s, 'examples', process.execPath, ['test/examples/run-examples.mjs']),
  },
  // Prints `[no-fakes] passed=N failed=N`; ~15 s, two `wrangler dev`, Node 20/22/24, Deno, Bun, Chromium at once.
  {
    order: 16,
    title: 'nothing injected (key sets, discovery, hono, the guard with bodies; Node, Deno, Bun, workerd, Chromium)',
    body: (s) => reportRun(s, 'no fakes', process.execPath, ['test/no-fakes/run.mjs']),
  },
  // Prints `[no-fakes mcp] passed=N failed=N`; one `wrangler dev` (the guard Worker), oidc-provider, the MCP SDK.
  {
    order: 18,
    title: 'the MCP SDK through the guard under wrangler dev (oidc-provider, RFC 9728 discovery, a tool call)',
    body: (s) => reportRun(s, 'no fakes mcp', process.execPath, ['test/no-fakes/mcp.ts']),
  },
  // The formatter (Prettier, .prettierrc.json and .prettierignore): every file it formats is as it would write it.
  {
    order: 19,
    title: "format check (prettier --check: the layout is the formatter's)",
    body: async (s) =>
      s.record('format check', ...((await run(s, 'npx', ['prettier', '--check', '.'])) === 0 ? [1, 0] : [0, 1])),
  },
  // What Prettier does not break (comments, strings): scripts/check-line-length.mjs, one row for the whole tree.
  {
    order: 20,
    title: 'line length (scripts/check-line-length.mjs: at most 120 characters a line)',
    body: async (s) =>
      s.record(
        'line length',
        ...((await run(s, process.execPath, ['scripts/check-line-length.mjs'])) === 0 ? [1, 0] : [0, 1]),
      ),
  },
  // The size budgets of the public entries (.size-limit.mjs), over dist/ as built above: one row per
  // budget, and a run that gives no report fails.
  {
    order: 17,
    title: 'size budgets (size-limit: each public entry as a Worker bundler builds it, .size-limit.mjs)',
    body: async (s) => {
      const file = join(REPORTS, 'size-limit.json');
      await run(s, 'npx', ['size-limit', '--json'], file);
      const text = readFileSync(file, 'utf8');
      let rows;
      try {
        rows = JSON.parse(text.slice(text.indexOf('['), text.lastIndexOf(']') + 1));
      } catch {
        rows = undefined;
      }
      if (!Array.isArray(rows) || rows.length === 0) return s.record('size budgets (no report)', 0, 1);
      const failed = rows.filter((r) => r.passed !== true).length;
      s.record('size budgets', rows.length - failed, failed);
    },
  },
  // Each bench (bench/smoke.ts) in a seconds-long mode: 1 passed per bench that completes.
  // Node 22 (the devDependency) runs the bench .ts files by type stripping.
  {
    order: 0,
    title: 'bench smoke (every bench in seconds; timings are never asserted)',
    body: (s) => reportRun(s, 'bench smoke', node22, ['bench/smoke.ts']),
  },
];

const queue = [...SUITES].sort((a, b) => a.order - b.order);
const done = new Map();
console.log(`\n${SUITES.length} suites, ${JOBS} at a time; each one's output follows when it ends.`);
await Promise.all(
  Array.from({ length: JOBS }, async () => {
    for (let suite = queue.shift(); suite; suite = queue.shift()) {
      console.log(`started: ${suite.title.split(' (')[0]}`);
      const step = new Step(suite.title, JOBS > 1);
      try {
        await suite.body(step);
      } catch (e) {
        step.write(`${e?.stack ?? e}\n`, true);
        step.record(`${suite.title.split(' (')[0]} (threw)`, 0, 1);
      }
      step.end();
      done.set(suite, step);
    }
  }),
);
steps.push(...SUITES.map((suite) => done.get(suite)));

process.stdout.write(heading("step timings (wall seconds, 1-minute load average at the step's end)"));
for (const s of steps) console.log(`${seconds(s.ms)} s  load ${s.load.toFixed(1).padStart(4)}  ${s.title}`);
console.log(
  `${seconds(Date.now() - started)} s  in all, ${JOBS} suites at a time after the first ` +
    `${steps.length - SUITES.length} steps, ${availableParallelism()} cores`,
);

process.stdout.write(heading('summary'));
let totalPassed = 0;
let totalFailed = 0;
const notRun = [];
for (const { name, passed, failed, notRun: why } of steps.flatMap((s) => s.rows)) {
  totalPassed += passed;
  totalFailed += failed;
  if (why) notRun.push({ name, why });
  const counted = `${String(passed).padStart(6)} passed ${String(failed).padStart(4)} failed`;
  const counts = why ? `       not run${failed ? ' (1 failed: CI=true)' : ''}` : counted;
  console.log(`${name.padEnd(22)} ${counts}`);
}
// Loud, just above the total: a suite that did not run is neither passed nor failed.
for (const { name, why } of notRun) {
  const bar = '!'.repeat(78);
  const title = `!! NOT RUN: ${name}${CI ? ' (a failure under CI=true)' : ''}`;
  console.log(`\n\x1b[1;33m${bar}\n${title}\n${why}\n${bar}\x1b[0m\n`);
}
const skipped = notRun.length > 0 ? ` (${notRun.length} suite${notRun.length > 1 ? 's' : ''} not run: see above)` : '';
console.log(`${totalPassed} passed, ${totalFailed} failed${skipped}`);
process.exitCode = totalFailed === 0 ? 0 : 1;
