// CI smoke of every bench: each bench file behind `npm run bench`, `bench:isolate`
// and `bench:load` runs with BENCH_SMOKE=1 (a few rounds, a few requests), then the
// charts and summaries are drawn from those results (into bench/results/smoke/,
// which git ignores). Proves the benches still run; timings are never asserted.
// Last line: `[bench smoke] passed=N failed=N` (one per bench), read by
// scripts/test-all.mjs. Needs `npm run build` first (test-all has done it).
// Run: node bench/smoke.ts (Node ≥ 22: type stripping; `npm run bench:smoke`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const windows = process.platform === 'win32';
const env = {
  ...process.env,
  BENCH_SMOKE: '1',
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  WRANGLER_HIDE_BANNER: 'true',
};

// npm is a .cmd script on Windows: only a shell starts it there.
const npm = (args: string[]) =>
  spawnSync('npm', args, { cwd: root, env, stdio: 'inherit', shell: windows }).status === 0;
if (!existsSync(join(root, 'bench/node_modules')) && !npm(['--prefix', 'bench', 'ci', '--no-audit', '--no-fund']))
  process.exit(1);
if (!existsSync(join(root, 'dist/index.js')) && !npm(['run', '--silent', 'build'])) process.exit(1);
mkdirSync(join(root, 'build'), { recursive: true });

let passed = 0;
let failed = 0;
for (const b of [
  'verify/algorithms',
  'verify/algorithms-workerd',
  'verify/stages',
  'verify/verify',
  'verify/cache-sweep',
  'verify/freeze',
  'verify/dpop-proof',
  'verify/bundle-size',
  'sign/sign',
  'sign/jwe',
  'sign/sign-jwe-workerd',
  'sign/table-algorithms',
  'sign/table-session',
  'guard/isolate',
  'guard/cold-profile',
  'guard/cold-steps',
  'guard/first-code',
  'guard/l2-writes',
  'guard/cold-local',
  'guard/guard-overhead-workerd',
  'guard/resource-workerd',
  'guard/load',
  'charts',
  'summary',
]) {
  const start = Date.now();
  // Bounded even if a Worker or wrangler hangs: CI must not wait on a bench.
  const r = spawnSync(process.execPath, [join(root, `bench/${b}.ts`)], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 120_000,
    killSignal: 'SIGKILL',
    maxBuffer: 256 << 20,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  writeFileSync(join(root, `build/bench-smoke-${b.replace('/', '-')}.log`), output);
  const seconds = Math.round((Date.now() - start) / 1000);
  if (r.status === 0) {
    passed++;
    console.log(`ok      bench/${b}.ts (${seconds} s)`);
  } else {
    failed++;
    const why = r.error ? ` (${r.error.message})` : r.signal ? ` (${r.signal})` : ` (exit ${r.status})`;
    console.log(`FAILED  bench/${b}.ts (${seconds} s)${why}; its output:`);
    console.log(
      output
        .split('\n')
        .slice(-40)
        .map((l) => `    ${l}`)
        .join('\n'),
    );
  }
}
console.log(`[bench smoke] passed=${passed} failed=${failed}`);
process.exitCode = failed === 0 ? 0 : 1;
