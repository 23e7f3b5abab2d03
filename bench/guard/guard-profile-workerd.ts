// Where the guard's warm request goes inside workerd: V8's sampling profiler
// (workerd's inspector) over a loop of one case of a bench entry (default: the
// HS256 guard request of guard-overhead-workerd-entry.ts), self time summed per
// function, plus GC and the runtime. The profile is written to
// build/bench-profile/guard-warm.cpuprofile for DevTools.
// Run: node bench/guard/guard-profile-workerd.ts ["case name prefix"] [seconds]
import { Miniflare } from 'miniflare';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { bundleWorker } from '../lib/workerd-bundle.ts';
import type { CpuProfile } from '../lib/profile.ts';
import { connect } from '../lib/devtools.ts';

const want = process.argv[2] ?? 'HS256 guard request';
const seconds = Number(process.argv[3] ?? 4);
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = join(root, 'build/bench-profile/guard-warm');
mkdirSync(dir, { recursive: true });
const entry = fileURLToPath(new URL(process.env.BENCH_ENTRY ?? './guard-overhead-workerd-entry.ts', import.meta.url));
writeFileSync(
  join(dir, 'main.ts'),
  `import setup from ${JSON.stringify(entry)};
let cases;
export default {
  async fetch(request) {
    cases ??= await setup();
    const url = new URL(request.url);
    const c = cases.find((x) => x.name.startsWith(url.searchParams.get('case')));
    const n = Number(url.searchParams.get('n'));
    for (let i = 0; i < n; i++) await c.fn();
    return new Response(c.name);
  },
};
`,
);
await bundleWorker(join(dir, 'main.ts'), join(dir, 'worker.js'), { minify: false, keepNames: true });
const port = 9700 + Math.floor(Math.random() * 200);
const mf = new Miniflare({
  inspectorPort: port,
  workers: [
    {
      name: 'w',
      modules: true,
      scriptPath: join(dir, 'worker.js'),
      modulesRoot: dir,
      modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
      compatibilityDate: '2026-04-01',
    },
  ],
});
try {
  const run = async (n: number) => {
    const r = await mf.dispatchFetch(`http://w.local/?case=${encodeURIComponent(want)}&n=${n}`);
    return r.text();
  };
  console.log('case:', await run(1));
  const until = Date.now() + 1500;
  while (Date.now() < until) await run(2000); // warm: JIT tiers
  const ws = await connect(`ws://127.0.0.1:${port}/core:user:w`);
  await ws.send('Profiler.enable');
  await ws.send('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_INTERVAL_US ?? 50) });
  await ws.send('Profiler.start');
  let calls = 0;
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    await run(5000);
    calls += 5000;
  }
  const { profile } = (await ws.send('Profiler.stop')) as { profile: CpuProfile };
  ws.close();
  writeFileSync(join(root, 'build/bench-profile/guard-warm.cpuprofile'), JSON.stringify(profile));
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const hits = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++)
    hits.set(profile.samples[i]!, (hits.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0));
  // inclusive: parent map
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const incl = new Map<string, number>();
  let total = 0;
  for (const [id, us] of hits) {
    const n = byId.get(id)!;
    const name = `${n.callFrame.functionName || '(anon)'} :${n.callFrame.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + us);
    total += us;
    const seen = new Set<string>();
    for (let p: number | undefined = id; p !== undefined; p = parent.get(p)) {
      const m = byId.get(p)!;
      const nm = `${m.callFrame.functionName || '(anon)'} :${m.callFrame.lineNumber + 1}`;
      if (seen.has(nm)) continue;
      seen.add(nm);
      incl.set(nm, (incl.get(nm) ?? 0) + us);
    }
  }
  const per = (us: number) => ((us * 1000) / calls / 1000).toFixed(2);
  console.log(
    `calls ${calls}, sampled ${(total / 1e6).toFixed(2)} s, ${per(total)} µs per call (all samples incl. idle)`,
  );
  console.log('\nself time, µs per call:');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log(per(v).padStart(8), k);
  console.log('\ninclusive, µs per call:');
  for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 60)) console.log(per(v).padStart(8), k);
} finally {
  await mf.dispose();
}
