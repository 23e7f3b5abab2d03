// `npm run bench`, `bench:isolate`, `bench:load`: runs a suite's bench files one
// after another (each in its own Node process, so one's JIT and heap state never
// colours the next), then redraws the charts and the summaries. A bench that
// crashes is reported and the rest still run; the exit code says if any failed.
// Usage: node bench/run.ts <table|isolate|load>
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadavg } from 'node:os';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const SUITES: Record<string, [string, string][]> = {
  table: [
    ['verify/algorithms.ts', 'full verify per algorithm, Node'],
    ['verify/algorithms-workerd.ts', 'full verify per algorithm, inside workerd'],
    ['verify/stages.ts', 'stage breakdown per algorithm (Node)'],
    ['verify/verify.ts', 'stage breakdown, cache hit, decode-only (Node)'],
    ['verify/cache-sweep.ts', 'per-isolate cache: hit cost and size sweep'],
    ['verify/freeze.ts', 'cost of deep-freezing a cached result vs a copy per caller'],
    ['verify/dpop-proof.ts', 'DPoP proof verify per algorithm vs the access-token verify and jose (Node)'],
    [
      'verify/bundle-size.ts',
      'createVerifier and the guard entry in a Worker bundle: minified size per algorithm against the issue ' +
        '23 targets, by room and file of src/',
    ],
    ['sign/sign.ts', 'sign per algorithm vs jose, fast-jwt, jsonwebtoken, bare primitive (Node)'],
    ['sign/jwe.ts', 'JWE decrypt (+ nested verify) vs jose and the bare AES-GCM (Node)'],
    ['sign/sign-jwe-workerd.ts', 'sign and JWE decrypt vs jose, inside workerd'],
    ['sign/table-algorithms.ts', 'sign and check per algorithm, composed from sign.ts and algorithms.ts'],
    ['sign/table-session.ts', 'sign, cached verify, decode, JWE, cache sizes, composed'],
  ],
  isolate: [
    ['guard/isolate.ts', 'guard vs no-op vs jose guard through Miniflare'],
    ['guard/cold-profile.ts', "CPU profile of the guard's first request inside workerd, by phase"],
    ['guard/l2-writes.ts', 'KV verify-cache writes by admission policy (Zipf replay)'],
    ['guard/guard-overhead-workerd.ts', "the guard's own CPU per warm request inside workerd"],
  ],
  load: [['guard/load.ts', 'wrangler dev under autocannon']],
};

const suite = process.argv[2] ?? 'table';
const steps = SUITES[suite];
if (steps === undefined) {
  console.error(`unknown suite ${suite}; one of ${Object.keys(SUITES).join(', ')}`);
  process.exit(2);
}
if (!existsSync(join(benchDir, 'node_modules'))) {
  console.log('Installing the bench peers (npm --prefix bench ci)…');
  // npm is a .cmd script on Windows: only a shell can start it there.
  const r = spawnSync('npm', ['--prefix', benchDir, 'ci', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (r.status !== 0) process.exit(1);
}
const load = loadavg()[0]!;
if (load > 1.5)
  console.log(
    `Note: load average ${load.toFixed(1)} on this machine: other work competes for the CPU and the figures ` +
      `will be noisy.`,
  );

const failed: string[] = [];
const t0 = Date.now();
for (const [i, [file, what]] of steps.entries()) {
  console.log(
    `\n\x1b[1m== [${i + 1}/${steps.length}] ${what} (bench/${file}) — ` +
      `${((Date.now() - t0) / 1000).toFixed(0)} s so far ==\x1b[0m\n`,
  );
  const r = spawnSync(process.execPath, [join(benchDir, file)], { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`bench/${file} failed (exit ${r.status ?? r.signal})`);
    failed.push(file);
  }
}
for (const file of ['charts.ts', 'summary.ts']) {
  const r = spawnSync(process.execPath, [join(benchDir, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed.push(file);
}
console.log(
  `\n${suite}: ${steps.length - failed.filter((f) => steps.some(([s]) => s === f)).length}/${steps.length} ` +
    `benches completed in ${((Date.now() - t0) / 1000).toFixed(0)} s` +
    `${failed.length ? `; failed: ${failed.join(', ')}` : ''}`,
);
process.exitCode = failed.length ? 1 : 0;
