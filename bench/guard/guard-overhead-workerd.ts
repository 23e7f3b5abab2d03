// The guard's own CPU per warm request inside workerd: a request through the guard
// (L1 off, every request verifies; stub origin) minus the library's verify of the
// same token minus the request plumbing (building the Request, the stub origin).
// Target (issue 23): at most 8 µs. Timed from Node as in lib/workerd.ts, as the
// workerd process's CPU (every thread, /proc/<pid>/task/*/schedstat), not wall time:
// why, and what a run reads, in bench/guard/cold-notes.md ("The workerd own-cost bench, made readable").
// Run: npm run build:wasm && node bench/guard/guard-overhead-workerd.ts   (BENCH_SMOKE=1 for a quick pass;
// BENCH_ROUNDS=n for more rounds, 25 by default; BENCH_CASES=all for every case (revocation, steps, parts),
// by default only the ones ownNs and the L1-hit request need, plus the runtime's empty round trips
// (BENCH_CASES=<fragment>,… adds the cases whose names hold one);
// BENCH_CLOCK=wall for the old wall-clock reading). Where the time goes inside one request, as a
// CPU profile: bench/guard/guard-profile-workerd.ts.
// BENCH_BASELINE_SRC=<another checkout's src/>: that src's guard too, in the same rounds
// (a before/after read under the same machine noise), e.g. from `git archive <commit> src`.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchInWorkerd } from '../lib/workerd.ts';
import { formatNs, printTable, summarize } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const env = environment(['miniflare']);
const baselineSrc = process.env.BENCH_BASELINE_SRC;
let entry = fileURLToPath(new URL('./guard-overhead-workerd-entry.ts', import.meta.url));
if (baselineSrc !== undefined) {
  // A generated entry hands the baseline's startGuard to the same setup.
  const wrapper = fileURLToPath(new URL('../../build/bench-workers/guard-overhead-baseline-entry.ts', import.meta.url));
  mkdirSync(join(wrapper, '..'), { recursive: true });
  const base = resolve(baselineSrc);
  // startGuard lives in worker/start.ts since the features registry (issue 23), in worker/guard.ts before;
  // since the stage shape (issue 34) it takes the stages to run: the baseline's own defaultStages.
  const start = join(base, existsSync(join(base, 'worker/start.ts')) ? 'worker/start.ts' : 'worker/guard.ts');
  const stages = join(base, 'worker/stages/index.ts');
  const run = existsSync(stages)
    ? `import { defaultStages } from ${JSON.stringify(stages)};\n` +
      'export default () => setup((env, deps) => startGuard(env, deps, undefined, defaultStages));\n'
    : 'export default () => setup(startGuard);\n';
  writeFileSync(
    wrapper,
    `import setup from ${JSON.stringify(entry)};\nimport { startGuard } from ${JSON.stringify(start)};\n${run}`,
  );
  entry = wrapper;
}
const all = process.env.BENCH_CASES === 'all';
// BENCH_CASES=a,b: these name fragments timed as well (e.g. `guard.verify (L1 off),verifier.verify through`).
const OWN = [
  ' guard request (L1 off',
  ' library verify',
  ' plumbing',
  ' guard request with an L1 hit',
  ' guard.verify (L1 hit)',
  'part runtime ',
  ...(all ? [] : (process.env.BENCH_CASES ?? '').split(',').filter((x) => x !== '')),
];
const roundsEnv = Number(process.env.BENCH_ROUNDS);
const load0 = loadavg();
const { samples, perRound, workerdVersion, clock } = await benchInWorkerd(entry, {
  ...(Number.isInteger(roundsEnv) && roundsEnv > 0 ? { rounds: roundsEnv } : {}),
  clock: process.env.BENCH_CLOCK === 'wall' ? 'wall' : 'cpu',
  ...(all ? {} : { only: (name: string) => !name.startsWith('revocation ') && OWN.some((p) => name.includes(p)) }),
});
const load = `load average ${load0.map((x) => x.toFixed(1)).join(' ')} → ${loadavg()
  .map((x) => x.toFixed(1))
  .join(' ')} (${cpus().length} CPUs)`;
env.workerd = workerdVersion;
env.clock = clock === 'cpu' ? 'workerd process CPU (schedstat, all threads)' : 'Node wall clock';
printEnvironment(env);
console.log(`timed: ${env.clock}; ${load}`);

type Spread = { medianNs: number; p25Ns: number; p75Ns: number };
const spread = (name: string, xs: number[]): Spread => {
  const s = summarize(name, xs);
  return { medianNs: s.medianNs, p25Ns: s.p25Ns, p75Ns: s.p75Ns };
};
const signed = (ns: number) => (ns < 0 ? `−${formatNs(-ns)}` : formatNs(ns));
const fmt = (d: Spread) => `${signed(d.medianNs)} [${signed(d.p25Ns)}–${signed(d.p75Ns)}]`;
/** Per-round a − b − c… (every case runs once in each round); undefined when a case was not run. */
const series = (a: string, ...minus: string[]): number[] | undefined => {
  const xs = [a, ...minus].map((n) => perRound[n]);
  if (xs.some((x) => x === undefined)) return undefined;
  const [first, ...rest] = xs as number[][];
  return first!.map((x, i) => rest.reduce((acc, y) => acc - y[i]!, x));
};
const net = (name: string, a: string, ...minus: string[]): Spread | undefined => {
  const xs = series(a, ...minus);
  return xs === undefined ? undefined : spread(name, xs);
};
const minus = (name: string, a: number[] | undefined, b: number[] | undefined): Spread | undefined =>
  a === undefined || b === undefined
    ? undefined
    : spread(
        name,
        a.map((x, i) => x - b[i]!),
      );

const overhead: Record<
  string,
  { guardNs: number; verifyNs: number; plumbingNs: number; ownNs: number; own: Spread; l1Request?: Spread }
> = {};
const baseline: Record<
  string,
  {
    guardNs: number;
    ownNs: number;
    own: Spread;
    ownMinusBaseline: Spread;
    l1Request?: Spread;
    l1RequestMinusBaseline?: Spread;
  }
> = {};
for (const alg of ['HS256', 'EdDSA', 'RS256', 'ES256']) {
  const rows = samples.filter((s) => s.name.startsWith(`${alg} `) || s.name.startsWith(`step ${alg} `));
  const name = (what: string) =>
    rows.find((r) => r.name.startsWith(`${alg} ${what}`) || r.name.startsWith(`step ${alg} ${what}`))?.name;
  printTable(`${alg}: one warm request inside workerd ${workerdVersion} (${clock})`, rows, name('library verify'));
  const [g, v, p] = [name('guard request (L1 off')!, name('library verify')!, name('plumbing')!];
  const own = net('own', g, v, p)!;
  const hit = name('guard.verify (L1 hit)');
  const l1Request = hit === undefined ? undefined : net('l1', name('guard request with an L1 hit')!, hit, p);
  const med = (n: string) => samples.find((s) => s.name === n)!.medianNs;
  overhead[alg] = {
    guardNs: med(g),
    verifyNs: med(v),
    plumbingNs: med(p),
    ownNs: own.medianNs,
    own,
    ...(l1Request === undefined ? {} : { l1Request }),
  };
  const b = name('baseline guard request (L1 off');
  if (b !== undefined) {
    const bOwn = net('base own', b, v, p)!;
    const bHit = name('baseline guard.verify (L1 hit)');
    const l1This = hit === undefined ? undefined : series(name('guard request with an L1 hit')!, hit, p);
    const l1Base = bHit === undefined ? undefined : series(name('baseline guard request with an L1 hit')!, bHit, p);
    const bL1 = l1Base === undefined ? undefined : spread('base l1', l1Base);
    const l1Diff = minus('l1 − baseline', l1This, l1Base);
    baseline[alg] = {
      guardNs: med(b),
      ownNs: bOwn.medianNs,
      own: bOwn,
      ownMinusBaseline: net('own − baseline', g, b)!,
      ...(bL1 === undefined ? {} : { l1Request: bL1 }),
      ...(l1Diff === undefined ? {} : { l1RequestMinusBaseline: l1Diff }),
    };
  }
}
const runtime = samples.filter((s) => s.name.startsWith('part runtime '));
printTable(
  'the runtime alone: an await, an empty WebCrypto round trip (what an RS/ES verify adds to any request ' +
    'before the guard runs a line)',
  runtime,
);
const revocationCost: Record<string, Spread> = {};
if (!all) {
  const extra = samples.filter((s) => s.name.startsWith('part ') && !s.name.startsWith('part runtime '));
  if (extra.length > 0) printTable('the pieces of a request path inside workerd (one call each)', extra);
}
if (all) {
  const revocation = samples.filter((s) => s.name.startsWith('revocation '));
  printTable(
    'revocation (issue 25): the same HS256 guard without the stage, with it and nothing revoked, with 10,000 entries',
    revocation,
  );
  // Paired by round (the same round runs every case), so machine noise common to a round cancels.
  for (const kind of ['guard request (L1 off)', 'guard.authenticate (L1 hit)']) {
    const of = (label: string) => `revocation HS256 ${kind}, ${label}`;
    for (const label of ['revocation on, nothing revoked', 'revocation on, 10,000 entries'])
      revocationCost[`${kind}: ${label}`] = net(label, of(label), of('no revocation stage'))!;
  }
  printTable(
    "the guard's decision alone (authenticate: path, rules, token, verify; nothing forwarded) and its verify",
    samples.filter((s) => s.name.startsWith('step ')),
  );
  printTable(
    'the pieces of a request path inside workerd (one call each)',
    samples.filter((s) => s.name.startsWith('part ')),
  );
}
console.log(
  `\n### The guard's own CPU per request (guard − verify − plumbing, per round: median [p25–p75]; target ≤ 8 ` +
    `µs; ${clock}; ${load})\n`,
);
for (const [alg, o] of Object.entries(overhead)) {
  const b = baseline[alg];
  const hit = o.l1Request === undefined ? '' : `; request with an L1 hit − L1 verify − plumbing ${fmt(o.l1Request)}`;
  const vs =
    b === undefined
      ? ''
      : `; baseline ${fmt(b.own)}, this − baseline ${fmt(b.ownMinusBaseline)}` +
        (b.l1RequestMinusBaseline === undefined
          ? ''
          : `, L1-hit request this − baseline ${fmt(b.l1RequestMinusBaseline)}`);
  console.log(
    `- ${alg}: ${fmt(o.own)} (guard ${formatNs(o.guardNs)}, verify ${formatNs(o.verifyNs)}, plumbing ` +
      `${formatNs(o.plumbingNs)})${hit}${vs}`,
  );
}
const edge = net(
  '12 headers',
  'HS256 12-header guard request with an L1 hit (stub origin)',
  'HS256 12-header baseline guard request with an L1 hit (stub origin)',
);
if (edge !== undefined)
  console.log(`- HS256, a request with 12 headers and an L1 hit: this − baseline ${fmt(edge)} (paired by round)`);
if (all) {
  console.log(
    '\n### Revocation cost per request (with − without, paired by round; targets: nothing revoked ≤ 1 µs, ' +
      '10,000 entries ≤ 2 µs)\n',
  );
  for (const [name, d] of Object.entries(revocationCost)) console.log(`- ${name}: ${fmt(d)}`);
}
if (process.env.BENCH_SMOKE !== '1') {
  const file = all ? 'guard-overhead-workerd' : 'guard-overhead-workerd-own';
  console.log(
    'results: ' +
      writeResults(file, {
        env,
        load,
        ...(baselineSrc === undefined
          ? {}
          : { baselineSrc, baseline, ...(edge === undefined ? {} : { edgeRequestMinusBaseline: edge }) }),
        samples,
        overhead,
        revocationCost,
      }),
  );
}
