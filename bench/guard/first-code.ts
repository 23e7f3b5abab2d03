// How much JavaScript each Worker of the isolate bench runs for the first time on
// its first request: V8's precise coverage (function granularity, call counts) in a
// fresh Node process per sample (workerd's inspector has no precise coverage), from
// the moment the bundle is imported to the response (first-code-child.ts). A
// fresh isolate interprets every function at its first call (parse, bytecode), so
// the bytes of distinct code a first request touches are what its first-run cost
// grows with, whatever the machine's load (this bench reads no clock).
// Per kind and algorithm: the functions called, and their bytes (innermost function
// owning each byte, so a called function's body is counted once and an uncalled
// closure inside it is not) in the minified bundle as shipped; then, from an
// unminified build of the same Worker, the same bytes by source file.
// Run: node bench/guard/first-code.ts   (ALGS=HS256,RS256 to narrow, HS256 alone under BENCH_SMOKE; TOP=n source files
// shown, 12)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { bundleWorker } from '../lib/workerd-bundle.ts';
import { configGuardBundle } from '../lib/config-guard-entry.ts';
import { sourceRanges } from '../lib/profile.ts';
import { environment, printEnvironment, writeResults, packageVersion } from '../lib/env.ts';
import { smoke } from '../lib/harness.ts';
import { BENCH_ALGS, benchKeys, guardConfig, mint, type BenchAlg } from './isolate/tokens.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = fileURLToPath(new URL('./isolate/', import.meta.url));
const algs = (process.env.ALGS?.split(',') ?? (smoke ? ['HS256'] : BENCH_ALGS)) as BenchAlg[];
const top = Number(process.env.TOP ?? 12);
const env = environment(['miniflare', 'jose']);
env.workerd = packageVersion('workerd');
printEnvironment(env);
const keys = benchKeys();
const config = guardConfig(keys);

type Kind = 'jose guard' | 'library only' | 'given only its stages' | 'default guard';
const KINDS: Kind[] = ['jose guard', 'library only', 'given only its stages', 'default guard'];

async function build(kind: Kind, minify: boolean): Promise<{ dir: string; code: string }> {
  const dir = join(root, 'build/bench-first-code', `${kind.replace(/ /g, '-')}${minify ? '' : '-plain'}`);
  mkdirSync(dir, { recursive: true });
  const opts = { minify, keepNames: false };
  // The bench config's stages beyond the core ones: its issuers have inline key sets (as isolate.ts builds it).
  if (kind === 'given only its stages')
    return { dir, code: (await configGuardBundle(dir, JSON.parse(config), join(root, 'src'), opts, ['keySets'])).code };
  const entry = {
    'jose guard': join(here, 'jose-guard.ts'),
    'library only': join(here, 'edgejwt-min.ts'),
    'default guard': join(root, 'src/worker/index.ts'),
  }[kind];
  return { dir, code: (await bundleWorker(entry, join(dir, 'worker.js'), opts)).code };
}

interface FnCoverage {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}

/** Bytes of `code` whose innermost enclosing function was called at least once (the module's top level counts). */
function calledBytes(code: string, fns: FnCoverage[]): { bytes: number; functions: number; owner: Int32Array } {
  const owner = new Int32Array(code.length).fill(-1);
  const ranges = fns
    .map((f, i) => ({ i, ...f.ranges[0]! }))
    .sort((a, b) => b.endOffset - b.startOffset - (a.endOffset - a.startOffset));
  for (const r of ranges) owner.fill(r.count > 0 ? 1 : 0, r.startOffset, r.endOffset);
  let bytes = 0;
  for (const o of owner) if (o === 1) bytes++;
  return { bytes, functions: fns.filter((f) => f.ranges[0]!.count > 0).length, owner };
}

const child = fileURLToPath(new URL('./first-code-child.ts', import.meta.url));
/** The first request of a fresh Node process through the bundle (first-code-child.ts), and the bytes it ran. */
function firstRequest(
  dir: string,
  code: string,
  alg: BenchAlg,
  token: string,
): ReturnType<typeof calledBytes> & { fresh: ReturnType<typeof calledBytes> } {
  const outFile = join(dir, 'coverage.json');
  execFileSync(
    process.execPath,
    [child, join(dir, 'worker.js'), token, JSON.stringify({ GUARD_CONFIG: config, HS_KEY: keys.hsKey }), outFile],
    { stdio: 'ignore' },
  );
  const { status, startup, functions } = JSON.parse(readFileSync(outFile, 'utf8')) as {
    status: number;
    startup: FnCoverage[] | null;
    functions: FnCoverage[] | null;
  };
  if (status !== 200 || functions === null || startup === null)
    throw new Error(`${dir} ${alg}: status ${status}${functions === null ? ', no coverage' : ''}`);
  // Functions are named by their range; the two takes list the same functions once compiled.
  const at = (f: FnCoverage) => `${f.ranges[0]!.startOffset}:${f.ranges[0]!.endOffset}`;
  const atStartup = new Map(startup.map((f) => [at(f), f.ranges[0]!.count]));
  const withCount = (f: FnCoverage, count: number): FnCoverage => ({ ...f, ranges: [{ ...f.ranges[0]!, count }] });
  // Called at all (from the import to the response), and called for the first time on the request.
  // A take may leave out functions of the other (V8 lists those it holds counts for): the union by range.
  const inRequest = new Set(functions.map(at));
  const all = [
    ...functions.map((f) => withCount(f, f.ranges[0]!.count + (atStartup.get(at(f)) ?? 0))),
    ...startup.filter((f) => !inRequest.has(at(f))),
  ];
  const fresh = functions.map((f) => withCount(f, (atStartup.get(at(f)) ?? 0) > 0 ? 0 : f.ranges[0]!.count));
  return { ...calledBytes(code, all), fresh: calledBytes(code, fresh) };
}

// fresh*: what ran for the first time on the request, after the module scope's own work (warm) had settled.
const results: Record<
  string,
  Record<
    string,
    {
      bundleBytes: number;
      calledBytes: number;
      calledFunctions: number;
      byFile: Record<string, number>;
      freshBytes: number;
      freshFunctions: number;
      freshByFile: Record<string, number>;
    }
  >
> = {};
for (const kind of KINDS) {
  const min = await build(kind, true);
  const plain = await build(kind, false);
  const { files } = sourceRanges(plain.code);
  const lineStarts: number[] = [0];
  for (let i = 0; i < plain.code.length; i++) if (plain.code.charCodeAt(i) === 10) lineStarts.push(i + 1);
  for (const alg of algs) {
    const token = mint(keys, alg, 1)[0]!;
    const shipped = firstRequest(min.dir, min.code, alg, token);
    const source = firstRequest(plain.dir, plain.code, alg, token);
    const byFileOf = (owner: Int32Array): Record<string, number> => {
      const byFile: Record<string, number> = {};
      let f = -1;
      for (let line = 0; line < lineStarts.length; line++) {
        while (f + 1 < files.length && files[f + 1]!.from <= line) f++;
        const name = f < 0 ? '(bundle top)' : files[f]!.file;
        const end = lineStarts[line + 1] ?? plain.code.length;
        let n = 0;
        for (let i = lineStarts[line]!; i < end; i++) if (owner[i] === 1) n++;
        if (n > 0) byFile[name] = (byFile[name] ?? 0) + n;
      }
      return byFile;
    };
    (results[kind] ??= {})[alg] = {
      bundleBytes: min.code.length,
      calledBytes: shipped.bytes,
      calledFunctions: shipped.functions,
      byFile: byFileOf(source.owner),
      freshBytes: shipped.fresh.bytes,
      freshFunctions: shipped.fresh.functions,
      freshByFile: byFileOf(source.fresh.owner),
    };
    process.stderr.write(
      `${kind} ${alg}: ${(shipped.bytes / 1024).toFixed(1)} KiB called of ` +
        `${(min.code.length / 1024).toFixed(1)}, ${(shipped.fresh.bytes / 1024).toFixed(1)} of it first on the ` +
        `request\n`,
    );
  }
}

const kib = (n: number) => (n / 1024).toFixed(1);
const jose = (alg: BenchAlg) => results['jose guard']![alg]!.calledBytes;
const lines = [
  '### JavaScript a first request runs (minified bundle as shipped; V8 precise coverage, function granularity; KiB)',
  '',
  '"first on the request": called on the request and not before it, by the module scope (warm: build, ' +
    'self-test, rehearsal), which had settled.',
  '',
  '| kind | alg | bundle | called | × jose guard | functions called | first on the request | functions |',
  '|---|---|---:|---:|---:|---:|---:|---:|',
  ...KINDS.flatMap((kind) =>
    algs.map((alg) => {
      const r = results[kind]![alg]!;
      return (
        `| ${kind} | ${alg} | ${kib(r.bundleBytes)} | ${kib(r.calledBytes)} | ` +
        `${(r.calledBytes / jose(alg)).toFixed(2)} | ${r.calledFunctions} | ${kib(r.freshBytes)} | ` +
        `${r.freshFunctions} |`
      );
    }),
  ),
];
for (const kind of KINDS.filter((k) => k !== 'jose guard')) {
  const alg = algs[0]!;
  const rows = Object.entries(results[kind]![alg]!.byFile).sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((s, [, n]) => s + n, 0);
  lines.push(
    '',
    `### ${kind}, ${alg}: called bytes by source file (unminified build, ${kib(total)} KiB in all; the first ${top})`,
    '',
    '| file | KiB | share |',
    '|---|---:|---:|',
  );
  for (const [file, n] of rows.slice(0, top))
    lines.push(`| ${file} | ${kib(n)} | ${((100 * n) / total).toFixed(0)}% |`);
  const fresh = Object.entries(results[kind]![alg]!.freshByFile).sort((a, b) => b[1] - a[1]);
  const freshTotal = fresh.reduce((s, [, n]) => s + n, 0);
  lines.push(
    '',
    `### ${kind}, ${alg}: first on the request, by source file (unminified, ${kib(freshTotal)} KiB; the first ${top})`,
    '',
    '| file | KiB | share |',
    '|---|---:|---:|',
  );
  for (const [file, n] of fresh.slice(0, top))
    lines.push(`| ${file} | ${kib(n)} | ${((100 * n) / freshTotal).toFixed(0)}% |`);
}
console.log(lines.join('\n'));
writeResults('first-code', { env, results });
