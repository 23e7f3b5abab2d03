// Node-side facts every bench prints and stores: machine, runtime, versions.
import { cpus, totalmem, platform, arch, loadavg, getPriority } from 'node:os';
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const requireFromBench = createRequire(join(benchDir, 'package.json'));

export function packageVersion(name: string): string {
  try {
    const path = requireFromBench.resolve(`${name}/package.json`);
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    // Some packages do not export package.json; find it next to the entry point.
    try {
      let dir = dirname(requireFromBench.resolve(name));
      for (let i = 0; i < 6; i++) {
        try {
          const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version: string };
          if (pkg.name === name) return pkg.version;
        } catch {
          /* keep walking up */
        }
        dir = dirname(dir);
      }
    } catch {
      /* not installed */
    }
    return 'not installed';
  }
}

export function environment(packages: string[] = []): Record<string, string> {
  const cpu = cpus();
  const edgejwt = JSON.parse(readFileSync(join(benchDir, '..', 'package.json'), 'utf8')) as { version: string };
  const env: Record<string, string> = {
    date: new Date().toISOString(),
    machine:
      `${cpu[0]?.model ?? 'unknown cpu'} × ${cpu.length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
      `${platform()} ${arch()}`,
    node: process.version,
    openssl: process.versions.openssl ?? 'n/a',
    v8: process.versions.v8,
    edgejwt: edgejwt.version,
    // The machine is shared: the 1/5/15-minute load averages when the bench started
    // (and, set by writeResults, when it ended) say how busy it was.
    loadStart: loadText(),
    // The bench's scheduling priority (`nice -n -10 node …` on a busy machine gives it more of a core).
    nice: String(getPriority()),
  };
  for (const p of packages) env[p] = packageVersion(p);
  // Timing settings changed from a bench's defaults are part of what was measured.
  for (const k of ['BENCH_ROUNDS', 'BENCH_ROUND_MS', 'BENCH_REQUEST_MS', 'BENCH_BEST_OF'])
    if (process.env[k]) env[k] = process.env[k]!;
  return env;
}

function loadText(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

export function printEnvironment(env: Record<string, string>): void {
  console.log(
    Object.entries(env)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  );
}

const resultsDir = () => join(benchDir, 'results', process.env.BENCH_SMOKE === '1' ? 'smoke' : '');

/**
 * A partial run's results (BENCH_ALGS): build/<name>.json, never results/; copied to
 * bench/results/ by hand when a summary should quote it.
 */
export function writePartialResults(name: string, data: unknown): string {
  return writeResults(name, data, join(benchDir, '..', 'build'));
}

/**
 * Write bench/results/<name>.json (figures plus the environment they came from).
 * Smoke runs (BENCH_SMOKE=1, as in CI) go to bench/results/smoke/, which git
 * ignores, so they never overwrite the figures the README quotes.
 */
export function writeResults(name: string, data: unknown, dir = resultsDir()): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.json`);
  const env = (data as { env?: Record<string, string> } | null)?.env;
  if (env !== undefined && typeof env === 'object') env.loadEnd = loadText();
  writeFileSync(path, JSON.stringify(data, null, 2) + '\n');
  return path;
}
