// Where the library-only Worker's first request goes (the isolate bench's
// isolate/edgejwt-min.ts, its four issuers): a CPU profile (V8's sampler over
// workerd's inspector, 50 µs) of the first request of a fresh workerd process, self
// time by source file of the unminified bundle and by function, mean over ROUNDS
// processes. Samples are capped at 200 µs each (one long gap, e.g. the sampler
// descheduled on a loaded machine, would otherwise be charged to whatever ran last).
// Wasm functions show as wasm-function[n] (build the core with asc --debug for names).
// Run: node bench/guard/lib-profile.ts   (ROUNDS=5, ALG=HS256|EdDSA|RS256|ES256, BENCH_SRC=other src/)
import { Miniflare } from 'miniflare';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { bundleWorker } from '../lib/workerd-bundle.ts';
import { connect } from '../lib/devtools.ts';
import { sourceRanges, type CpuProfile } from '../lib/profile.ts';
import { benchKeys, guardConfig, mint } from './isolate/tokens.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = join(root, 'build/lib-profile');
mkdirSync(dir, { recursive: true });
const src = process.env.BENCH_SRC ?? join(root, 'src');
await bundleWorker(
  join(root, 'bench/guard/isolate/edgejwt-min.ts'),
  join(dir, 'worker.js'),
  { minify: false, keepNames: true },
  src,
);
writeFileSync(
  join(dir, 'entry.js'),
  `let m;\nexport default { async fetch(r, env, ctx) {\n  if (new URL(r.url).pathname === '/__ping') return ` +
    `new Response('ok');\n  m ??= await import('./worker.js');\n  return m.default.fetch(r, env, ctx);\n} };\n`,
);
const { files } = sourceRanges(readFileSync(join(dir, 'worker.js'), 'utf8'));
const fileOf = (line: number) => {
  let f = '(bundle top)';
  for (const r of files)
    if (r.from <= line) f = r.file;
    else break;
  return f;
};
const keys = benchKeys();
const rounds = Number(process.env.ROUNDS ?? 5);
const alg = (process.env.ALG ?? 'HS256') as 'HS256';
const toks = mint(keys, alg, rounds);
const byFile: Record<string, number[]> = {},
  byFn: Record<string, number[]> = {};
let port = 9800 + Math.floor(Math.random() * 150);
for (let r = 0; r < rounds; r++) {
  const mf = new Miniflare({
    handleRuntimeStdio: (o: NodeJS.ReadableStream, e: NodeJS.ReadableStream) => {
      o.resume();
      e.resume();
    },
    inspectorPort: port,
    workers: [
      {
        name: 'lib',
        modules: true,
        scriptPath: join(dir, 'entry.js'),
        modulesRoot: dir,
        modulesRules: [
          { type: 'ESModule', include: ['**/*.js'] },
          { type: 'CompiledWasm', include: ['**/*.wasm'] },
        ],
        compatibilityDate: '2026-04-01',
        bindings: { GUARD_CONFIG: guardConfig(keys), HS_KEY: keys.hsKey },
      },
    ],
  });
  await mf.ready;
  await (await mf.dispatchFetch('http://lib.bench.invalid/__ping')).text();
  const ins = await connect(`ws://127.0.0.1:${port++}/core:user:lib`);
  await ins.send('Profiler.enable');
  await ins.send('Profiler.setSamplingInterval', { interval: 50 });
  await ins.send('Profiler.start');
  const res = await mf.dispatchFetch('http://lib.bench.invalid/api/orders', {
    headers: { authorization: `Bearer ${toks[r]}` },
  });
  await res.text();
  if (res.status !== 200) throw new Error(String(res.status));
  const { profile } = (await ins.send('Profiler.stop')) as { profile: CpuProfile };
  ins.close();
  await mf.dispose();
  if (r === 0) writeFileSync(join(dir, `${alg}.cpuprofile`), JSON.stringify(profile));
  const node = new Map(profile.nodes.map((n) => [n.id, n]));
  const f: Record<string, number> = {},
    fn: Record<string, number> = {};
  profile.samples.forEach((id, i) => {
    const cf = node.get(id)!.callFrame;
    const us = Math.min(profile.timeDeltas[i + 1] ?? 0, 200);
    const file = cf.url.endsWith('worker.js')
      ? fileOf(cf.lineNumber)
      : cf.url
        ? cf.url.split('/').pop()!
        : cf.functionName || '(anon)';
    f[file] = (f[file] ?? 0) + us;
    const k = `${cf.functionName || '(anon)'} @${file}`;
    fn[k] = (fn[k] ?? 0) + us;
  });
  for (const [k, v] of Object.entries(f)) (byFile[k] ??= []).push(v / 1000);
  for (const [k, v] of Object.entries(fn)) (byFn[k] ??= []).push(v / 1000);
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / rounds;
const show = (m: Record<string, number[]>, n: number) =>
  Object.entries(m)
    .map(([k, v]) => [k, sum(v)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(2).padStart(7)}  ${k}`)
    .join('\n');
console.log(
  `self ms, mean of ${rounds} profiles (${alg})\n-- by file --\n${show(byFile, 40)}\n-- by function --\n` +
    `${show(byFn, 50)}`,
);
