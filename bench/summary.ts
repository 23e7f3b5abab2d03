// Writes bench/results/SUMMARY.md (every table), docs/speed.md (the headline
// figures with the machine, the date, the charts and the commands) and the README's
// Speed headline (between its speed-headline markers), its cold-start bullet and docs/api.md's
// freeze cost (bench/lib/doc-figures.ts) from the results JSON. Whatever has not been run is said to be missing.
// Smoke runs write only results/smoke/SUMMARY.md. Run: node bench/summary.ts
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { formatNs, formatTable, smoke, type Sample } from './lib/harness.ts';
import { latencyTable, type Latency } from './lib/latency.ts';
import { coldTable, type ColdCell } from './lib/cold.ts';
import { L2_DEFAULT_ALGORITHMS } from '../src/worker/l2-defaults.ts';
import { inconsistency, loadLine, readmeSpeed, replaceBlock } from './lib/readme-speed.ts';
import { coldStartBullet, freezeCost, replaceMarked, type FreezeRun } from './lib/doc-figures.ts';
import { coldLimitsLines, type ColdLimits } from './lib/cold-limits.ts';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const dir = join(benchDir, smoke ? 'results/smoke' : 'results');
const read = <T>(name: string): T | undefined =>
  existsSync(join(dir, `${name}.json`))
    ? (JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as T)
    : undefined;

type Env = Record<string, string>;
interface Table {
  env: Env;
  keyPaths?: Record<string, string>;
  variants: Record<string, Sample[]>;
  floors?: Record<string, Sample[]>;
  l2Cpu?: Sample;
}
interface Isolate {
  env: Env;
  n: Record<string, number>;
  bundleBytes: Record<string, number>;
  processStart?: Latency;
  processCold?: Record<string, ColdCell>;
  isolateCold?: Record<string, ColdCell>;
  warm: Record<string, Record<string, Latency>>;
  l2: Record<string, Record<string, Latency> & { tiers?: Record<string, number> }>;
  jwks: Record<string, Latency | number>;
}
interface Load {
  env: Env;
  connections: number;
  amount: number;
  validPool: number;
  runs: {
    name: string;
    requests: number;
    throughput: number;
    latencyMs: Record<string, number>;
    status: Record<string, number>;
    errors: number;
    timeouts: number;
    wrong: number;
  }[];
  directRuns?: Load['runs'];
}

const node = read<Table>('algorithms-node');
const workerd = read<Table>('algorithms-workerd');
const sweep = read<
  Record<string, unknown> & {
    env: Env;
    hitRates: Record<string, number>;
    population: number;
    warmRequests: number;
    timedRequests: number;
  }
>('cache-sweep');
const verify = read<Record<string, unknown> & { env: Env }>('verify-node');
const iso = read<Isolate>('isolate');
const writes = read<{
  env: Env;
  population: number;
  requests: number;
  isolates: number;
  rate: number;
  l1Max: number;
  rows: Record<string, number | string>[];
}>('l2-writes');
const fleetLocal = read<{
  env: Env;
  delayMs: number;
  rounds: number;
  edgejwt: { fetchesAfterFill: number; ioMsP50: number; wallMsP50: number };
  jose: { fetches: number; ioMsP50: number; wallMsP50: number };
  spray: { requests: number; fetches: number; refused: number };
}>('fleet-local');
const fleet = read<{ env: Env; model: Record<string, unknown> & FleetModel; rows: Record<string, number | string>[] }>(
  'fleet',
);
const coldLocal = read<ColdLocal>('cold-local');
const coldLimits = read<ColdLimits>('cold-local-limits');
// Interleaved A/B of the claim's note write, awaited (old) or handed to waitUntil (new): nothing-warm first requests.
interface ClaimAb {
  how: string;
  pairs: { old: number; new: number; joseOld: number; joseNew: number }[];
  fleet?: { how: string; old: Record<string, number>; new: Record<string, number> };
}
const claimAb = read<ClaimAb>('cold-local-claim-ab');
const prof = read<{
  env: Env;
  rounds: number;
  phases: string[];
  summary: Record<string, { wallMs: number; phasesMs: Record<string, number> }>;
}>('cold-profile');
const load = read<Load>('load');
// Composed by bench/sign/table-algorithms.ts and bench/sign/table-session.ts from the other results.
const signCheck = read<{ markdown: string }>('table-algorithms');
const session = read<{ markdown: string }>('table-session');
const signTargets = read<{ targets: string[] }>('sign-node')?.targets;
// The guard's warm cost with originAssertion on: from the full isolate run when it has
// the row, else from a warm-only run (BENCH_ONLY=warm) copied to results/isolate-warm.json.
const warmOnly = read<{ env: Env; warm: Record<string, Record<string, Latency>> }>('isolate-warm');
const assertionRun = iso?.warm && Object.values(iso.warm).some((w) => w['guard-assertion']) ? iso : warmOnly;

const x = (v: number) => `${v >= 10 ? v.toFixed(1) : v.toFixed(2)}×`;
const isPeer = (name: string) => !name.startsWith('edgejwt') && !name.includes('bare') && !name.includes('cache hit');
// The Rust wasm-bindgen peer's bare checks (bench/peers/rust-cases.ts): their own table, not the platform's floor.
const isRust = (name: string) => name.includes('(Rust Wasm, bare)');
const envLine = (e: Env | undefined, extra: string[] = []) =>
  e === undefined
    ? ''
    : `${e.date?.slice(0, 16).replace('T', ' ')} UTC · ${e.machine} · Node ${e.node} · ${[
        'jose',
        'fast-jwt',
        'hono',
        'workerd',
        'miniflare',
        ...extra,
      ]
        .filter((k) => e[k])
        .map((k) => `${k} ${e[k]}`)
        .join(' · ')}${e.loadStart ? ` · ${loadLine(e)}` : ''}`;

/** How each library in a table was given its key (bench/lib/key-paths.ts), or a warning for older results. */
function keyPathLines(t: Table): string[] {
  if (t.keyPaths === undefined)
    return [
      'Key path per peer: not recorded in this result (run before the key paths were fixed; re-run `npm run bench`).',
    ];
  return [
    'Key path per library (each key made once, before timing):',
    '',
    ...Object.entries(t.keyPaths).map(([lib, path]) => `- ${lib}: ${path}`),
  ];
}

/** Per variant: edgejwt's median, and ratios (peer median / edgejwt median: > 1 means edgejwt is faster). */
function headline(t: Table, ours: (rows: Sample[]) => Sample, also?: string): string[] {
  const out = [
    `| algorithm | edgejwt${also ? ' verifySync' : ''} | ${also ? `${also} | ` : ''}× jose | × fastest peer ` +
      `(which) | bare primitive |`,
    `|---|---:|${also ? '---:|' : ''}---:|---|---:|`,
  ];
  for (const [label, rows] of Object.entries(t.variants)) {
    const me = ours(rows);
    const other = also === undefined ? undefined : rows.find((r) => r.name === `edgejwt ${also}`);
    const jose = rows.find((r) => r.name === 'jose');
    const peers = rows.filter((r) => isPeer(r.name) && Number.isFinite(r.medianNs) && r.medianNs > 0);
    // A smoke run may measure no peer or no bare primitive for a variant: say so, don't throw.
    const fastest = (list: Sample[]) =>
      list.length === 0 ? undefined : list.reduce((a, b) => (a.medianNs < b.medianNs ? a : b));
    const best = fastest(peers);
    const bare = fastest(rows.filter((r) => r.name.includes('bare') && !isRust(r.name)));
    out.push(
      `| ${label} | ${formatNs(me.medianNs)} (${formatNs(me.p25Ns)}–${formatNs(me.p75Ns)}) | ` +
        `${other ? `${formatNs(other.medianNs)} | ` : also ? '— | ' : ''}` +
        `${jose ? x(jose.medianNs / me.medianNs) : '—'} | ` +
        `${best ? `${x(best.medianNs / me.medianNs)} (${best.name})` : '—'} | ` +
        `${bare ? `${formatNs(bare.medianNs)} (${bare.name.replace(' (bare)', '')})` : '—'} |`,
    );
  }
  return out;
}
// A run of the HS256 and EdDSA rows alone (BENCH_ALGS=HS256,EdDSA; its build/ file copied here):
// the Rust peer's table comes from it when the full table has no Rust rows.
const nodeAlone = read<Table>('algorithms-node-HS256-EdDSA');
const workerdAlone = read<Table>('algorithms-workerd-HS256-EdDSA');

/** The Rust peer's rows beside edgejwt's full verify of the same variant, or why there are none. */
function rustLines(full: Table, alone: Table | undefined, ours: (rows: Sample[]) => Sample): string[] {
  const rowsOf = (t: Table) =>
    Object.entries(t.variants).flatMap(([label, r]) =>
      r.filter((s) => isRust(s.name)).map((s) => ({ label, me: ours(r), s })),
    );
  const t = rowsOf(full).length > 0 || alone === undefined ? full : alone;
  const rows = rowsOf(t);
  const peer = 'the Rust wasm-bindgen peer (`bench/peers/rust-verify`)';
  if (rows.length === 0) return [`Not in this run: ${peer}, not built (\`npm run bench:rust-peer\`).`];
  const algs = '`BENCH_ALGS=HS256,EdDSA`';
  const aloneRun = `_This table: a run of the HS256 and EdDSA rows only (${algs}), ${envLine(t.env)}_`;
  return [
    ...(t === full ? [] : [aloneRun, '']),
    `Beside ${peer}: its check of the signature alone over the same signing input (no JWT decode, no claims), ` +
      "key prepared once; × is the Rust check's median ÷ edgejwt's whole verify, measured in the same run.",
    '',
    '| algorithm | edgejwt full verify | Rust Wasm bare check | its median (p25–p75) | × edgejwt |',
    '|---|---:|---|---:|---:|',
    ...rows.map(({ label, me, s }) => {
      const spread = `${formatNs(s.medianNs)} (${formatNs(s.p25Ns)}–${formatNs(s.p75Ns)})`;
      const crate = s.name.replace(' (Rust Wasm, bare)', '');
      return `| ${label} | ${formatNs(me.medianNs)} | ${crate} | ${spread} | ${x(s.medianNs / me.medianNs)} |`;
    }),
  ];
}
// Ratios in Node use verifySync (no promise around the work); the async verify is shown beside it.
const nodeOurs = (rows: Sample[]) => rows.find((r) => r.name === 'edgejwt verifySync')!;
const workerdOurs = (rows: Sample[]) => rows.find((r) => r.name.startsWith('edgejwt'))!;

const sum: string[] = [
  '# Bench results',
  '',
  smoke
    ? '**Smoke run: the figures are not meaningful.**'
    : 'Generated by `node bench/summary.ts` from the JSON beside this file. Ratios are peer median ÷ edgejwt ' +
      'median in the same run (> 1: edgejwt faster); spreads are p25–p75 of the timing rounds.',
  '',
];
const speed: string[] = [];

// --- KV verify cache verdict -------------------------------------------------
function kvVerdict(): string[] {
  if (workerd?.l2Cpu === undefined) return ['(Run `npm run bench` for the workerd table: the verdict needs it.)'];
  const l2 = workerd.l2Cpu.medianNs;
  const rows = Object.entries(workerd.variants).map(([label, r]) => ({
    label,
    alg: label.split('-')[0]!,
    ns: workerdOurs(r).medianNs,
  }));
  // Tiers of CPU an L2 hit would save: verify under 2x the hit's own CPU saves
  // little; 2-10x some; 10x and more, most of the request's CPU.
  const tier = (ns: number) => (ns >= 10 * l2 ? 'high' : ns >= 2 * l2 ? 'some' : 'little');
  const out = [
    `Inside workerd, an L2 hit's own CPU (SHA-256 of the token, open the sealed value, parse; the KV read ` +
      `replaced by memory) costs **${formatNs(l2)}**. edgejwt's full verify, per algorithm:`,
    '',
    '| algorithm | verify (workerd) | verify ÷ L2 CPU | CPU an L2 hit saves |',
    '|---|---:|---:|---|',
    ...rows.map((r) => `| ${r.label} | ${formatNs(r.ns)} | ${(r.ns / l2).toFixed(2)} | ${tier(r.ns)} |`),
    '',
  ];
  if (iso?.l2) {
    out.push('Latency through Miniflare (local KV, a client on loopback), p50:', '');
    out.push(
      '| algorithm | L2 off: verify only | L2 miss: KV read, verify, write | L2 hit from another isolate | hit − off |',
      '|---|---:|---:|---:|---:|',
    );
    for (const [alg, c] of Object.entries(iso.l2)) {
      const off = c['L2 off (verify only)'] as Latency;
      const cold = c['L2 cold (KV miss, verify, write)'] as Latency;
      const hit = c['L2 warm (KV hit, other isolate)'] as Latency;
      out.push(
        `| ${alg} | ${off.p50.toFixed(2)} ms | ${cold.p50.toFixed(2)} ms | ${hit.p50.toFixed(2)} ms | ` +
          `${(hit.p50 - off.p50 >= 0 ? '+' : '') + (hit.p50 - off.p50).toFixed(2)} ms |`,
      );
    }
    out.push('');
  }
  // Only the defaults this run measured (smoke runs take one variant per family).
  const defaults = new Set(L2_DEFAULT_ALGORITHMS);
  const inTrue = (label: string) => defaults.has(label.split('-')[0]!);
  const high = rows.filter((r) => tier(r.ns) === 'high');
  const some = rows.filter((r) => tier(r.ns) === 'some');
  const little = rows.filter((r) => tier(r.ns) === 'little');
  const names = (rs: typeof rows) => rs.map((r) => r.label).join(', ') || 'none';
  const latencyOk =
    iso?.l2 === undefined
      ? undefined
      : Object.values(iso.l2).every(
          (c) =>
            (c['L2 warm (KV hit, other isolate)'] as Latency).p50 >= (c['L2 off (verify only)'] as Latency).p50 - 0.1,
        );
  const someIn = some.filter((r) => inTrue(r.label));
  const someOut = some.filter((r) => !inTrue(r.label));
  out.push(
    `Saves most of the CPU (verify ≥ 10× the hit): **${names(high)}**. Saves some (2–10×): **` +
      `${names(some)}**. Saves little (< 2×): ${names(little)}. The guard's \`cache.verify: true\` is ` +
      `${L2_DEFAULT_ALGORITHMS.join(', ')}; the default is off.`,
    '',
    '**Verdict.**',
    '',
    latencyOk === undefined
      ? '- Default off: run `npm run bench:isolate` for the latency side.'
      : latencyOk
        ? '- **Off by default: backed.** A KV hit never answered sooner than verifying locally (hit − off ≥ 0 ' +
          'at p50 for every algorithm), so for latency the KV verify cache only costs.'
        : '- Off by default: **not clearly backed here**: a KV hit answered sooner than a local verify for some ' +
          'algorithm at p50; re-run on a quiet machine.',
    high.every((r) => inTrue(r.label)) && little.every((r) => !inTrue(r.label))
      ? `- **\`true\` = ECDSA: backed at the ends.** Every variant where a hit saves most of the CPU is in it` +
          `${high.length ? ` (${names(high)})` : ''}, and none where it saves little.`
      : `- \`true\` = ECDSA: **not backed**: ${
          high
            .filter((r) => !inTrue(r.label))
            .map((r) => r.label)
            .join(', ') || 'nothing'
        } saves most CPU but is left out; ${
          little
            .filter((r) => inTrue(r.label))
            .map((r) => r.label)
            .join(', ') || 'nothing'
        } saves little but is in.`,
    someIn.length && someOut.length
      ? `- **The middle is not separated by these numbers**: ${names(someIn)} (in \`true\`) costs the same ` +
          `order as ${names(someOut)} (left out). An operator limited by CPU who uses those should list them, e.g. ` +
          `\`"cache": { "verify": ["ES256", "EdDSA"] }\`.`
      : '- The middle tier lies entirely on one side of `true`.',
    '- Local Miniflare KV is not production KV (a network-backed store with its own latency); the CPU tiers ' +
      'carry over, the latency figures only bound it from below.',
  );
  return out;
}

// --- Node and workerd tables -------------------------------------------------
if (node) {
  sum.push(
    '## Full verify per algorithm, Node',
    '',
    envLine(node.env, ['jsonwebtoken', '@tsndr/cloudflare-worker-jwt']),
    '',
    ...headline(node, nodeOurs, 'verify (async)'),
    '',
    ...rustLines(node, nodeAlone, nodeOurs),
    '',
    ...keyPathLines(node),
    '',
    '![ops/s per library, Node](ops-node.svg)',
    '',
  );
  for (const [label, rows] of Object.entries(node.variants))
    sum.push(formatTable(`${label} (Node)`, rows, 'edgejwt verifySync'), '');
} else sum.push('## Full verify per algorithm, Node', '', 'Not run yet: `npm run bench`.', '');
if (workerd) {
  sum.push(
    '## Full verify per algorithm, inside workerd',
    '',
    envLine(workerd.env),
    '',
    ...headline(workerd, workerdOurs),
    '',
    ...rustLines(workerd, workerdAlone, workerdOurs),
    '',
    ...keyPathLines(workerd),
    '',
    '![ops/s per library, workerd](ops-workerd.svg)',
    '',
  );
  for (const [label, rows] of Object.entries(workerd.variants))
    sum.push(formatTable(`${label} (workerd)`, rows, rows[0]!.name), '');
} else sum.push('## Full verify per algorithm, inside workerd', '', 'Not run yet: `npm run bench`.', '');

if (verify) {
  sum.push(
    '## Stage breakdown, verify cache hit, decode-only (bench/verify/verify.ts, Node)',
    '',
    envLine(verify.env),
    '',
  );
  for (const k of Object.keys(verify).filter((k) => k.endsWith('-stages')))
    sum.push(formatTable(`${k.replace('-stages', '')}: stage breakdown`, verify[k] as Sample[], 'full verifySync'), '');
  if (verify['cache-hit'])
    sum.push(
      formatTable(
        'Verify cache hit (fresh copy of the token string)',
        verify['cache-hit'] as Sample[],
        (verify['cache-hit'] as Sample[])[0]!.name,
      ),
      '',
    );
  if (verify.decode)
    sum.push(formatTable('Decode only', verify.decode as Sample[], (verify.decode as Sample[])[0]!.name), '');
}
const stages = read<{ env: Env; variants: Record<string, Sample[]> }>('stages-node');
if (stages) {
  sum.push('## Stage breakdown per algorithm (bench/verify/stages.ts, Node)', '', envLine(stages.env), '');
  for (const [label, rows] of Object.entries(stages.variants))
    sum.push(formatTable(`${label}: stages`, rows, 'full verifySync'), '');
}
const ed = read<{ env: Env; wasmBytes?: number; rows: Sample[]; first?: Record<string, number> }>('ed25519-node');
if (ed) {
  sum.push(
    '## Ed25519 in Node, with the Rust wasm-bindgen peer (bench/core/ed25519.ts)',
    '',
    envLine(ed.env, ['@noble/curves']),
    '',
    formatTable('Ed25519 verify of the signing input', ed.rows, ed.rows[0]!.name),
    '',
  );
  if (ed.first)
    sum.push(
      `edgejwt's core: ${ed.wasmBytes ?? '?'} bytes of Wasm; first verify in a fresh process (median of ` +
        `${ed.first.runs}): compile + instantiate ${ed.first.instantiateMs?.toFixed(1)} ms, first key import ` +
        `${ed.first.importMs?.toFixed(1)} ms, the verify ${ed.first.verifyMs?.toFixed(1)} ms.`,
      '',
    );
}
if (sweep) {
  sum.push(
    '## Per-isolate verify cache: size sweep (Node)',
    '',
    envLine(sweep.env),
    '',
    `${sweep.population.toLocaleString('en-US')} live tokens, requests drawn Zipf(s=1) from a seeded ` +
      `generator: ${sweep.warmRequests?.toLocaleString('en-US')} warm each cache, the next ` +
      `${sweep.timedRequests?.toLocaleString('en-US')} are timed. Hit rate over the timed requests by size: ` +
      `${Object.entries(sweep.hitRates)
        .map(([k, v]) => `${Number(k) / 1000}k ${(v * 100).toFixed(1)}%`)
        .join(', ')}.`,
    '',
  );
  for (const alg of ['HS256', 'EdDSA', 'ES256'])
    if (sweep[alg])
      sum.push(
        formatTable(`${alg}: mean cost per request`, sweep[alg] as Sample[], 'no cache (verify every request)'),
        '',
      );
}

/** The two composed tables, with the sign targets' verdicts printed by bench/sign/sign.ts. */
function composedSections(level: string): string[] {
  const out: string[] = [];
  if (signCheck)
    out.push(
      `${level} Sign and check per algorithm (Node)`,
      '',
      signCheck.markdown,
      '',
      ...(signTargets?.length
        ? ['Sign targets (`bench/sign/sign.ts`, same run): ' + signTargets.join('; ') + '.', '']
        : []),
    );
  if (session)
    out.push(`${level} Session tokens: sign, cached verify, decode, JWE, cache sizes (Node)`, '', session.markdown, '');
  return out;
}
sum.push(...composedSections('##'));

/** Warm latency of the guard with and without originAssertion (an EdDSA signature per forwarded request). */
function assertionSection(level: string): string[] {
  if (assertionRun === undefined) return [];
  const cell = (l: Latency) => `${l.p50.toFixed(3)} (${l.p25.toFixed(3)}–${l.p75.toFixed(3)})`;
  const out = [
    `${level} The guard's warm cost of originAssertion`,
    '',
    `_${envLine(assertionRun.env)}_`,
    '',
    `Warm requests through Miniflare (\`bench/guard/isolate.ts\`, warm section), distinct valid tokens, every ` +
      `Worker in the same rounds; ms p50 (p25–p75). "on" signs an EdDSA origin assertion (sub + scope, 60 s) for ` +
      `each forwarded request.` +
      (assertionRun === warmOnly
        ? ' From a warm-only run: `BENCH_ONLY=warm node bench/guard/isolate.ts`, its `build/isolate-warm.json` ' +
          'copied to `bench/results/isolate-warm.json`.'
        : ''),
    '',
    '| algorithm | no-op Worker | guard, assertion off | guard, assertion on | on − off (p50) |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const [alg, w] of Object.entries(assertionRun.warm)) {
    const off = w.guard;
    const on = w['guard-assertion'];
    if (!off || !on || !w.noop) continue;
    out.push(
      `| ${alg} | ${cell(w.noop)} | ${cell(off)} | ${cell(on)} | ${((on.p50 - off.p50) * 1000).toFixed(0)} µs |`,
    );
  }
  return [...out, ''];
}
sum.push(...assertionSection('##'));

// --- Isolate bench -----------------------------------------------------------
function isolateSections(i: Isolate): string[] {
  const out: string[] = [];
  const kinds = ['noop', 'lib', 'guard', 'jose'] as const;
  const names: Record<string, string> = {
    noop: 'no-op Worker',
    lib: 'edgejwt library only',
    guard: 'edgejwt guard',
    jose: 'jose guard',
  };
  if (i.processCold !== undefined)
    out.push(
      coldTable(
        `First request of a fresh workerd process (${i.n.processes} processes, every Worker its own isolate; ` +
          `process start p50 ${i.processStart?.p50.toFixed(0)} ms)`,
        i.processCold,
        '####',
        1,
      ),
      '',
    );
  if (i.isolateCold !== undefined)
    out.push(
      coldTable(
        `First request of a fresh isolate in a running workerd (Worker Loader, ${i.n.isolates} rounds)`,
        i.isolateCold,
        '####',
      ),
      '',
    );
  out.push(
    `| warm p50 / p95 / p99 ms | ${kinds.map((k) => names[k]).join(' | ')} |`,
    `|---|${kinds.map(() => '---:').join('|')}|`,
  );
  for (const [alg, w] of Object.entries(i.warm)) {
    const cells = kinds.map((k) => `${w[k]!.p50.toFixed(2)} / ${w[k]!.p95.toFixed(2)} / ${w[k]!.p99.toFixed(2)}`);
    out.push(`| ${alg} | ${cells.join(' | ')} |`);
  }
  out.push(
    '',
    `Bundles (minified JS): ${Object.entries(i.bundleBytes)
      .map(([k, v]) => `${k} ${(v / 1024).toFixed(1)} KiB`)
      .join(', ')}; the guard also loads its Wasm core.`,
    '',
  );
  return out;
}

/** The CPU profile of the guard's first request, by phase (bench/guard/cold-profile.ts). */
function profileSection(p: NonNullable<typeof prof>): string[] {
  const shown = p.phases.filter((ph) => ph !== 'sampler gaps');
  return [
    `CPU of the guard's first request in a fresh workerd process, from V8's sampling profiler over workerd's ` +
      `inspector (\`bench/guard/cold-profile.ts\`; median of ${p.rounds} profiles per row, ms). The bundle is ` +
      `imported by the first request, so its evaluation is inside. The profiler slows cold code (every compiled ` +
      `function is logged), so read the shares, not the absolute figures: the unprofiled wall times are in the ` +
      `tables above. "KV off" is the isolate bench's configuration (no \`CACHE_KEY\`); "KV on" sets it (JWKS and ` +
      `the HS secret digest through the sealer).`,
    '',
    `| case | client wall (profiled) | ${shown.join(' | ')} |`,
    `|---|---:|${shown.map(() => '---:').join('|')}|`,
    ...Object.entries(p.summary).map(
      ([cell, v]) =>
        `| ${cell} | ${v.wallMs.toFixed(1)} | ${shown.map((ph) => (v.phasesMs[ph] ?? NaN).toFixed(2)).join(' | ')} |`,
    ),
    '',
  ];
}

if (prof)
  sum.push(
    '## First request, CPU by phase (profile inside workerd)',
    '',
    envLine(prof.env),
    '',
    ...profileSection(prof),
  );
if (iso) {
  sum.push(
    '## Isolate bench (Miniflare)',
    '',
    envLine(iso.env),
    '',
    ...isolateSections(iso),
    '![latency, cold and warm](latency-isolate.svg)',
    '',
  );
  for (const [alg, w] of Object.entries(iso.warm)) sum.push(latencyTable(`Warm, ${alg}`, Object.entries(w)), '');
  for (const [alg, c] of Object.entries(iso.l2))
    sum.push(
      latencyTable(
        `KV verify cache, ${alg} (tiers answered: ${JSON.stringify(c.tiers)})`,
        Object.entries(c).filter(([k]) => k !== 'tiers') as [string, Latency][],
      ),
      '',
    );
  sum.push(
    latencyTable(
      `JWKS on a fresh isolate (key-set fetches: ${i(iso.jwks.networkFetches)})`,
      Object.entries(iso.jwks).filter(([, v]) => typeof v === 'object') as [string, Latency][],
    ),
    '',
  );
} else sum.push('## Isolate bench', '', 'Not run yet: `npm run bench:isolate`.', '');
/** bench/guard/l2-writes.ts: KV writes per admission policy on the Zipf replay. */
function writesSection(w: NonNullable<typeof writes>): string[] {
  const base = Number(w.rows[0]!.writes);
  const f = (v: number | string | undefined) => Number(v).toLocaleString('en-US');
  return [
    `A replay (\`bench/guard/l2-writes.ts\`, the guard's own L1 and admission classes): ${f(w.requests)} ` +
      `requests at ${w.rate}/s over ${w.isolates} isolates sharing one KV, Zipf(s=1) over ${f(w.population)} ` +
      `live tokens, L1 ${f(w.l1Max)}. Fewer writes cost more full verifies: read both columns.`,
    '',
    '| policy | KV writes | saved | KV reads | L2 hits | full verifies |',
    '|---|---:|---:|---:|---:|---:|',
    ...w.rows.map(
      (r) =>
        `| ${r.policy} | ${f(r.writes)} | ${(100 * (1 - Number(r.writes) / base)).toFixed(0)}% | ` +
        `${f(r.reads)} | ${f(r.l2Hits)} | ${f(r.verifies)} |`,
    ),
    '',
  ];
}

interface FleetModel {
  latency: Record<string, [number, number]>;
  dcs: number;
  slots: number;
  rpsPerDc: number;
  isolateLifeMs: number;
  timeoutMs: number;
  cooldownMs: number;
  maxAgeMs: number;
  rotateAt: number;
  dropAt: number;
  outage: [number, number];
  spray: { requests: number; overMs: number; isolates: number };
  kvPrice: { readPerMillion: number; writePerMillion: number; source: string };
  ownCostFrom: string;
  l2PerMillion: { reads: number; writes: number };
}

/** Issue 35's target: a fresh isolate's first request, colo tier warm, at least one provider RTT faster than jose's. */
function fleetTarget(fl: NonNullable<typeof fleet>): string[] {
  const edge = fl.rows.find((x) => String(x.peer).startsWith('edgejwt: memory → colo'));
  const jose = fl.rows.find((x) => String(x.peer).startsWith('jose'));
  if (edge === undefined || jose === undefined || edge.firstHandshakeP50 === undefined) return [];
  const rtt = (fl.model.latency.provider![0] + fl.model.latency.provider![1]) / 2;
  const verdict = (e: number, j: number) => {
    const gain = j - e;
    return `${gain.toFixed(1)} ms faster (${gain >= rtt ? 'met' : `**missed** by ${(rtt - gain).toFixed(1)} ms`})`;
  };
  const own = (e: number, j: number) => `own cost ${e} against jose's ${j} ms`;
  return [
    `Target (first request p50 on a fresh isolate with the colo tier warm at least one provider round trip, median ` +
      `${rtt} ms, faster than the jose guard's): module evaluated in the request ` +
      `${verdict(Number(edge.firstP50), Number(jose.firstP50))}, ${own(Number(edge.ownMs), Number(jose.ownMs))}; ` +
      `evaluated during the TLS handshake ` +
      `${verdict(Number(edge.firstHandshakeP50), Number(jose.firstHandshakeP50))}, ` +
      `${own(Number(edge.ownHandshakeMs), Number(jose.ownHandshakeMs))}. The target holds only if the guard's own ` +
      `first-request cost plus a Cache API read is below jose's own cost: what is left is the guard's own cold cost ` +
      `(issue 34's fresh-process and Loader cells).`,
    '',
  ];
}

/** bench/guard/fleet.ts: the key-set cold path across a fleet, per peer (issue 35). */
function fleetSection(fl: NonNullable<typeof fleet>): string[] {
  const m = fl.model;
  const l = m.latency;
  const r = (a: [number, number]) => (a[0] === a[1] ? `${a[0]}` : `${a[0]}–${a[1]}`);
  const n = (v: number | string | undefined) => Number(v).toLocaleString('en-US');
  const min = (ms: number) => `${ms / 60_000} min`;
  const l2Cost =
    (m.l2PerMillion.reads * m.kvPrice.readPerMillion + m.l2PerMillion.writes * m.kvPrice.writePerMillion) / 1e6;
  return [
    `A deterministic simulation (\`bench/guard/fleet.ts\`, seeded PRNG, virtual clock): ${m.dcs} data centres ` +
      `× ${m.slots} isolate slots, each isolate replaced by a fresh one after an exponential life of mean ` +
      `${m.isolateLifeMs / 1000} s, ${m.rpsPerDc} RS256 requests/s per data centre, in front of one provider. ` +
      `The tier logic is the real one: edgejwt's \`RemoteJWKSet\` from dist/ with in-memory tiers that add the ` +
      `modelled latencies, its own deadlines, claims and polls running on the virtual clock. jose's ` +
      `\`createRemoteJWKSet\` is modelled by the same class with jose's behaviour (memory only, cooldown ` +
      `${m.cooldownMs / 1000} s, max age ${m.maxAgeMs / 60_000} min, no stale set on failure); hono's \`jwk\` ` +
      `middleware fetches the key set on every request (\`verifyWithJwks\` in hono 4.13), modelled directly (its ` +
      `fetch has no timeout: given the same ${m.timeoutMs / 1000} s, at best). Guard defaults: timeout ` +
      `${m.timeoutMs / 1000} s, cooldown ${m.cooldownMs / 1000} s, max age ${m.maxAgeMs / 60_000} min.`,
    '',
    `**Modelled** (ms, uniform): provider round trip ${r(l.provider!)} (issue 35's figure); KV read hot in ` +
      `the data centre ${r(l.kvHot!)} (issue 35; Cloudflare's blog "We made Workers KV up to 3x faster", ` +
      `2024-09-26), cold ${r(l.kvCold!)} (assumption), KV writes visible elsewhere after 60 s (KV docs); Cache ` +
      `API read or write ${r(l.cache!)} (assumption: no published figure found); isolate start ` +
      `${r(l.isolateStart!)} (Cloudflare's published "under 5 ms"). **Measured**: each peer's in-isolate ` +
      `first-request cost, ${m.ownCostFrom}. KV prices: $${m.kvPrice.readPerMillion.toFixed(2)} per million ` +
      `reads, $${m.kvPrice.writePerMillion.toFixed(2)} per million writes beyond the Workers Paid inclusions (` +
      `${m.kvPrice.source}).`,
    '',
    `Traffic: the issuer adds k2 at ${min(m.rotateAt)} (tokens move to it) and drops k1 at ${min(m.dropAt)}; ` +
      `from then on every data centre sends one k1 probe a second (a stream of unknown kids). Outage: the ` +
      `provider hangs from ${min(m.outage[0])} to ${min(m.outage[1])} (every fetch ends at the timeout). Spray: ` +
      `${n(m.spray.requests)} requests with random kids over ${m.spray.overMs / 1000} s across ` +
      `${m.spray.isolates} isolates of one data centre.`,
    '',
    '| peer | own first-request cost, ms (measured) | fresh isolate first request p50 / p99, ms | … with the ' +
      'module evaluated during the TLS handshake: own cost, first request p50 / p99, ms | provider ' +
      'fetches/min (steady, with a rotation) | with 1 unknown kid/s per DC | KV reads / writes per 1M requests ' +
      '(key sets) | KV cost per 1M requests | s until a dropped key stops verifying everywhere (this run) | ' +
      'outage: requests passed | outage: fresh isolate p50 / p99, ms | outage: provider fetches/min | kid spray: ' +
      'fetches in the minute (per cooldown) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...fl.rows.map(
      (x) =>
        `| ${x.peer} | ${x.ownMs} | ${x.firstP50} / ${x.firstP99} | ${x.ownHandshakeMs ?? '?'}: ` +
        `${x.firstHandshakeP50 ?? '?'} / ${x.firstHandshakeP99 ?? '?'} | ${x.fetchesPerMin} | ` +
        `${x.probeFetchesPerMin} | ${n(x.kvReadsPerM)} / ${n(x.kvWritesPerM)} | $` +
        `${Number(x.kvCostPerM).toFixed(4)} | ${x.dropSeconds} | ${x.outagePassPct}% | ` +
        `${x.outageFirstP50 ?? '?'} / ${x.outageFirstP99} | ${x.outageFetchesPerMin} | ${x.sprayFetches} (` +
        `${x.sprayFetchesPerCooldown}) |`,
    ),
    '',
    ...fleetTarget(fl),
    `With ES256 (the guard's KV verify cache, L2, is on by default for ES*), L2 adds ` +
      `${n(m.l2PerMillion.reads)} KV reads and ${n(m.l2PerMillion.writes)} writes per million requests ($` +
      `${l2Cost.toFixed(3)}) on the Zipf replay of \`bench/guard/l2-writes.ts\` (default admission); RS256 ` +
      `(above) has L2 off by default.`,
    '',
    `Worst case for a dropped key, by construction rather than by this run: a set fetched just before the ` +
      `drop is served from any tier until its own freshUntil, so at most the max age (${m.maxAgeMs / 1000} s) ` +
      `while the issuer answers; while it fails, the stale window extends it (staleDuration; the guard's ` +
      `\`jwks.staleMs\`). hono's 0 s is the price of a provider fetch on every request.`,
    '',
    '![fleet: first request, provider fetches, spray](../bench/results/fleet.svg)',
    '',
    ...(fleetLocal === undefined
      ? ['Checked in a real runtime: not run yet (`node bench/guard/fleet-local.ts`).', '']
      : fleetLocalLines(fleetLocal)),
    ...(coldLocal === undefined
      ? ['Real `wrangler dev` isolates: not run yet (`npm run bench:cold-local`).', '']
      : coldLocalLines(coldLocal, fl)),
    ...(coldLimits === undefined
      ? ['Past the stale window and a dropped key, locally: not run yet (`npm run bench:cold-local`).', '']
      : coldLimitsLines(
          coldLimits,
          { ...m, edgejwt: fl.rows.find((r) => String(r.peer).startsWith('edgejwt: memory')) },
          envLine,
        )),
  ];
}

interface ColdFirst {
  status: number;
  ms: number;
  fetches: number;
  kvReads?: number;
}
interface ColdSpray {
  seconds: number;
  isolates: number;
  requests: number;
  refused: number;
  fetches: number;
  perWindow: number[];
}
interface ColdTogether {
  burst: { requests: number; passed: number; fetches: number };
  spray: { requests: number; refused: number; fetches: number };
}
interface ColdRow {
  kind: string;
  n: number;
  p50: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
  statuses: string;
  fetchesPerIsolate: string;
  kvReadsPerIsolate: string;
}
interface ColdLocal {
  env: Env;
  delayMs: number;
  rounds: number;
  summary: ColdRow[];
  spray?: { cooldownMs: number; burst: number; edgejwt: ColdSpray; jose: ColdSpray };
  together?: { isolates: number; edgejwt: ColdTogether; jose: ColdTogether };
  outage?: { fill: ColdFirst; edgejwt: ColdFirst[]; jose: ColdFirst[] };
}

/** bench/guard/cold-local.ts: issue 35 item 4, real wrangler dev isolates (one process per fresh isolate). */
function coldLocalLines(x: ColdLocal, fl: NonNullable<typeof fleet>): string[] {
  const f = (v: number) => v.toFixed(1);
  const row = (kind: string) => x.summary.find((r) => r.kind === kind);
  const [colo, jose, none] = [row('edgejwt, colo tier warm'), row('jose, cold'), row('edgejwt, nothing warm')];
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ab = (k: (p: ClaimAb['pairs'][number]) => number) => f(med(claimAb!.pairs.map(k)));
  const fa = claimAb?.fleet;
  const diffs = claimAb?.pairs.map((p) => p.new - p.old) ?? [];
  const fleetAb = (k: string, what: string) => `${what} ${fa!.old[k]} → ${fa!.new[k]}`;
  const top = Math.max(...x.summary.map((r) => r.p50));
  const bar = (ms: number) => '█'.repeat(Math.max(1, Math.round((40 * ms) / top)));
  const zeros = (counts: string) => counts.split(' ').every((v) => v === '0');
  const modelP50 = (peer: string) => String(fl.rows.find((r) => String(r.peer).startsWith(peer))?.firstP50 ?? '?');
  const modelGap = Number(modelP50('jose')) - Number(modelP50('edgejwt: memory'));
  const { spray: sp, outage: out, together: tg } = x;
  const tgText = (t: ColdTogether) =>
    `${t.burst.fetches} provider fetch(es) for ${t.burst.requests} first requests (${t.burst.passed} passed), then` +
    ` ${t.spray.fetches} for ${t.spray.requests} random kids (${t.spray.refused} refused)`;
  const para = (...parts: (string | false | undefined)[]) => [parts.filter(Boolean).join(' '), ''];
  const cells = (r: ColdRow) =>
    [
      r.kind,
      r.n,
      f(r.p50),
      `${f(r.p25)}–${f(r.p75)}`,
      `${f(r.min)}–${f(r.max)}`,
      r.statuses,
      r.fetchesPerIsolate,
      r.kvReadsPerIsolate,
    ].join(' | ');
  const list = (rs: ColdFirst[], k: (r: ColdFirst) => string | number) => rs.map(k).join(', ');
  return [
    ...para(
      `**Measured in real \`wrangler dev\` isolates** (\`npm run bench:cold-local\`, ${envLine(x.env, ['wrangler'])}).`,
      'Each fresh isolate is a new `wrangler dev` process (a new workerd process: the module evaluates anew; no',
      "reset endpoint), with local persistence in a temp dir, so Miniflare's Cache API and KV outlive it. The edgejwt",
      'guard is the default guard Worker (an RS256 `jwksUrl` issuer, `CACHE_KEY` set, the KV copy on) plus a count of',
      "its KV reads; the jose guard is the isolate bench's (`createRemoteJWKSet`, memory only). The provider on",
      `127.0.0.1 answers after ${x.delayMs} ms and counts its fetches. Measured: the client's wall time of each`,
      "isolate's first request (through wrangler's local proxy, whose floor is part of every row), the provider",
      `fetches and KV reads it caused. ${x.rounds} rounds, kinds in a fixed order per round: nothing warm fills both`,
      'tiers, the next isolate finds the colo tier warm, then the Cache API state is deleted, leaving KV.',
    ),
    `| fresh isolate, first request | n | p50 ms | p25–p75 | min–max | status | provider fetches per isolate |` +
      `${''} KV reads per isolate |`,
    '|---|---:|---:|---:|---:|---|---|---|',
    ...x.summary.map((r) => `| ${cells(r)} |`),
    '',
    '```',
    ...x.summary.map((r) => `${r.kind.padEnd(24)} ${bar(r.p50)} ${f(r.p50)} ms`),
    '```',
    '',
    ...(colo && jose
      ? para(
          "Target (colo tier warm: 0 provider fetches and 0 KV reads; first request ≤ the jose guard's cold one):",
          `counts ${zeros(colo.fetchesPerIsolate) && zeros(colo.kvReadsPerIsolate) ? 'met' : 'missed'};`,
          `p50 ${f(colo.p50)} ms`,
          `against jose's ${f(jose.p50)} ms (${colo.p50 <= jose.p50 ? 'met' : 'missed'}; the slowest colo-warm isolate`,
          `${f(colo.max)} ms, the fastest jose one ${f(jose.min)} ms).`,
        )
      : []),
    ...(claimAb
      ? para(
          'The claim before a fetch, nothing warm, interleaved A/B (`bench/results/cold-local-claim-ab.json`,',
          `${claimAb.how}): ${claimAb.pairs.length} pairs, first request p50 ${ab((p) => p.old)} ms with the ` +
            `note write`,
          `awaited and then slept at least as long again, ${ab((p) => p.new)} ms with it handed to waitUntil; ` +
            `per pair,`,
          `new − old: median ${ab((p) => p.new - p.old)} ms, from ${f(Math.min(...diffs))} to`,
          `${f(Math.max(...diffs))} ms`,
          `(jose in the same runs: ${ab((p) => p.joseOld)} and ${ab((p) => p.joseNew)} ms). On this machine ` +
            `the noise is`,
          'larger than the saving, which is one Cache API write per claimant (a few ms in production, where the model',
          'takes 1–5 ms). One provider fetch per isolate either way.',
          fa && `In the simulation (${fa.how}), old → new for edgejwt with the colo tier:`,
          fa &&
            [
              fleetAb('firstP50', 'first request p50 (ms)'),
              fleetAb('firstP99', 'p99 (ms)'),
              fleetAb('fetchesPerMin', 'provider fetches/min'),
              fleetAb('probeFetchesPerMin', 'with a stray kid/s'),
              fleetAb('outageFetchesPerMin', 'in the outage'),
              fleetAb('sprayFetches', 'spray fetches'),
              fleetAb('kvReadsPerM', 'KV reads per 1M requests'),
              fleetAb('kvWritesPerM', 'KV writes'),
            ].join(', ') + '.',
        )
      : []),
    ...(sp
      ? para(
          `Kid spray (${sp.burst} tokens with random kids per fresh isolate, 10 at a time, fresh isolates one after`,
          `another for ${Math.round(sp.edgejwt.seconds)} s, cooldown ${sp.cooldownMs / 1000} s for both): edgejwt`,
          `${sp.edgejwt.isolates} isolates, ${sp.edgejwt.requests} requests (${sp.edgejwt.refused} refused),`,
          `${sp.edgejwt.fetches} provider fetches, per ${sp.cooldownMs / 1000} s window`,
          `${sp.edgejwt.perWindow.join(', ')}; jose ${sp.jose.isolates} isolates, ${sp.jose.requests} requests`,
          `(${sp.jose.refused} refused), ${sp.jose.fetches}`,
          `fetches, per window ${sp.jose.perWindow.join(', ')} (${f(sp.jose.fetches / sp.jose.isolates)} per ` +
            `isolate: on`,
          'Workers jose drops its in-flight fetch between requests, `isCloudflareWorkers()` in its remote.js, so each',
          "of a fresh isolate's concurrent first requests fetches).",
        )
      : []),
    ...(tg
      ? para(
          `${tg.isolates} isolates at once: one \`wrangler dev\` running ${tg.isolates} copies of the guard ` +
            `as separate`,
          "Workers (each its own V8 isolate in one workerd, sharing Miniflare's Cache API and KV as the isolates of",
          'one data centre do) behind a front Worker that routes by a query parameter. Nothing warm, 4 concurrent',
          'requests per isolate with the good kid; then fresh isolates again, the state kept, once the cooldown has',
          `passed since the last fetch, 10 random kids per isolate, all at once. edgejwt: ${tgText(tg.edgejwt)}; jose:`,
          `${tgText(tg.jose)}. Target (≤ 2 provider fetches per cooldown per data centre under a spray):`,
          `${tg.edgejwt.spray.fetches <= 2 ? 'met' : 'missed'} here.`,
        )
      : []),
    ...(out
      ? para(
          'Provider outage inside staleDuration (`jwks.maxAgeMs` 5000, so the set filled before the outage is stale',
          '6 s later; the provider then answers 503 after its delay): edgejwt',
          `${out.edgejwt.length} fresh isolates, statuses ${list(out.edgejwt, (r) => r.status)}, first request`,
          `${list(out.edgejwt, (r) => f(r.ms))} ms, provider fetches ${list(out.edgejwt, (r) => r.fetches)} (the first`,
          "isolate's failed fetch is noted in the colo tier; the next ones serve the stale set without asking); jose",
          `${out.jose.length} fresh isolates, statuses ${list(out.jose, (r) => r.status)}, fetches`,
          `${list(out.jose, (r) => r.fetches)}.`,
          coldLimits?.outagePastStale
            ? 'A provider that hangs and the 503 after the stale window: below.'
            : 'Not measured here: the 503 after staleDuration (1 h; the tests cover it) and a provider that ' +
                "hangs (the model's outage).",
        )
      : []),
    ...para(
      "**Where the model and the local run disagree.** (1) Latency: the model puts edgejwt's first request at p50",
      `${modelP50('edgejwt: memory')} ms and jose's at ${modelP50('jose')} ms (provider 100–200 ms, isolate start`,
      '5 ms); locally every row carries the wrangler proxy and a first request into a just-started workerd, so the',
      'absolute figures are higher',
      colo && jose && `; with the colo tier warm edgejwt is ${f(jose.p50 - colo.p50)} ms faster than jose here`,
      colo && jose && `(provider delay ${x.delayMs} ms), ${f(modelGap)} ms in the model (provider 100–200 ms)`,
      ". (2) jose's fetches: the model gives jose single flight (one fetch per isolate per cooldown); on Workers",
      'jose fetches once per concurrent first request',
      sp && `(${f(sp.jose.fetches / sp.jose.isolates)} per isolate here)`,
      ", so the model undercounts it. (3) The spray: the model's 100 isolates run at once; here the spray over",
      'time runs isolates one after another (one workerd per `wrangler dev`, state shared through the persist dir)',
      'and the race between isolates at once is',
      tg ? `${tg.isolates} isolates, not 100;` : 'not run;',
      'the per-cooldown counts agree. (4) KV: a local KV read is a SQLite read on this machine, not the',
      '8–12 ms (hot) or 30–60 ms (cold) the model takes.',
      none && jose && `(5) A data centre's very first isolate (nothing warm) is not a row of the model; here it takes`,
      none && jose && `${f(none.p50 - jose.p50)} ms more than jose's cold request: the claim (a note read, a sealed`,
      none && jose && 'note write, 25 ms to let it land, a read back) and the misses in both tiers, each a trip to',
      none && jose && "Miniflare's cache or KV service on this machine, before the same provider fetch.",
    ).map((l) => l.replace(/ ([.,;])/g, '$1')),
  ];
}

/** bench/guard/fleet-local.ts: the same tiers in Miniflare with a delaying provider on 127.0.0.1. */
function fleetLocalLines(x: NonNullable<typeof fleetLocal>): string[] {
  return [
    `**Checked in a real runtime** (\`bench/guard/fleet-local.ts\`, ${envLine(x.env)}): Miniflare's workerd ` +
      `with its real Cache API, a provider on 127.0.0.1 answering after ${x.delayMs} ms and counting its ` +
      `fetches; every request builds its key set afresh (what a fresh isolate has; it does not start fresh ` +
      `isolates). ${x.rounds} requests each, after one request filled the Cache API: edgejwt ` +
      `${x.edgejwt.fetchesAfterFill} provider fetches, key-set I/O p50 ${x.edgejwt.ioMsP50} ms (wall ` +
      `${x.edgejwt.wallMsP50.toFixed(1)} ms); jose ${x.jose.fetches} fetches, ${x.jose.ioMsP50} ms (wall ` +
      `${x.jose.wallMsP50.toFixed(1)} ms). ${x.spray.requests} concurrent fresh instances with unknown kids ` +
      `after the cooldown: ${x.spray.fetches} provider fetch(es), ${x.spray.refused} refused. The model's counts ` +
      `agree (0 fetches with the colo tier warm; at most 2 per cooldown under a spray); its latencies are the ` +
      `published/assumed figures above, not loopback's.`,
    '',
  ];
}

/** The hand-written reading of the cold-start figures (bench/guard/cold-notes.md), if present. */
function coldNotes(): string[] {
  const f = join(benchDir, 'guard/cold-notes.md');
  return existsSync(f) ? [readFileSync(f, 'utf8').trim(), ''] : [];
}
function i(v: unknown): string {
  return String(v);
}

// --- Load bench --------------------------------------------------------------
function loadTable(l: Load): string[] {
  return [
    `${l.connections} connections, ${l.amount.toLocaleString('en-US')} requests per run, ` +
      `${l.validPool.toLocaleString('en-US')} distinct valid EdDSA tokens cycling (more than the L1 holds; the ` +
      `dev config also has the KV verify cache on).`,
    '',
    '| run | requests | req/s | p50 ms | p90 ms | p99 ms | statuses | errors | wrong status |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|',
    ...l.runs.map(
      (r) =>
        `| ${r.name} | ${r.requests} | ${Math.round(r.throughput).toLocaleString('en-US')} | ` +
        `${r.latencyMs.p50} | ${r.latencyMs.p90} | ${r.latencyMs.p99} | ${Object.entries(r.status)
          .map(([k, v]) => `${k}: ${v}`)
          .join(', ')} | ${r.errors + r.timeouts} | ${r.wrong} |`,
    ),
    ...(l.directRuns === undefined
      ? []
      : [
          '',
          'Straight against workerd (Miniflare on a port, no wrangler proxy), one Worker at a time, default ' +
            "caches (L1 only); × no-op is the throughput over the no-op Worker's in the same run:",
          '',
          '| run | requests | req/s | × no-op | p50 ms | p90 ms | p99 ms | statuses | errors | wrong status |',
          '|---|---:|---:|---:|---:|---:|---:|---|---:|---:|',
          ...l.directRuns.map(
            (r) =>
              `| ${r.name} | ${r.requests} | ${Math.round(r.throughput).toLocaleString('en-US')} | ` +
              `${(r.throughput / l.directRuns![0]!.throughput).toFixed(2)} | ${r.latencyMs.p50} | ` +
              `${r.latencyMs.p90} | ${r.latencyMs.p99} | ${Object.entries(r.status)
                .map(([k, v]) => `${k}: ${v}`)
                .join(', ')} | ${r.errors + r.timeouts} | ${r.wrong} |`,
          ),
        ]),
  ];
}
if (load)
  sum.push(
    '## Load bench (wrangler dev on loopback, autocannon)',
    '',
    envLine(load.env, ['wrangler', 'autocannon']),
    '',
    ...loadTable(load),
    '',
  );
else sum.push('## Load bench', '', 'Not run yet: `npm run bench:load`.', '');

sum.push('## KV verify cache: which algorithms by default', '', ...kvVerdict(), '');
if (writes) sum.push('## KV verify cache: writes by admission policy', '', ...writesSection(writes));
if (fleet) sum.push('## Key sets across a fleet (simulation)', '', envLine(fleet.env), '', ...fleetSection(fleet));
writeFileSync(join(dir, 'SUMMARY.md'), sum.join('\n') + '\n');
console.log(`wrote ${join(dir, 'SUMMARY.md')}`);

// --- docs/speed.md ------------------------------------------------------------
if (!smoke) {
  speed.push(
    '# Speed',
    '',
    '<!-- Generated by `node bench/summary.ts` from bench/results/*.json; edit the generator, not this file. -->',
    '',
    'Every figure is a median measured side by side with the peers in the same run; ratios are peer ÷ edgejwt',
    '(> 1: edgejwt is faster). The machine is a shared 2-vCPU VM: treat small differences (under ~15%) as',
    'noise and read the spreads in [bench/results/SUMMARY.md](../bench/results/SUMMARY.md), which has every table.',
    '',
    '| command | what it measures | time |',
    '|---|---|---|',
    '| `npm run bench` | full verify per algorithm vs every peer, in Node and inside workerd; stage ' +
      'breakdown; per-isolate cache hit and size sweep (beside the fast-jwt cache and jose); decode-only; sign ' +
      'per algorithm and JWE encrypt/decrypt; the sign-and-check and session-token tables composed from those; ' +
      'for HS256 and EdDSA the bare checks of the Rust wasm-bindgen peer (built on the first run: `npm run ' +
      'bench:rust-peer`, a few minutes once) | a few minutes |',
    '| `npm run bench:isolate` | the route guard vs a no-op Worker, the library alone and a jose guard: first ' +
      'request of a fresh process and of a fresh isolate (30 rounds each, `BENCH_ISOLATES`/`BENCH_PROCESSES` to ' +
      'change), warm p50/p95/p99, KV verify cache, JWKS network vs KV; a CPU profile of the first request by ' +
      'phase | about 4 minutes |',
    '| `npm run bench:load` | `wrangler dev` under autocannon on loopback, 0% and 50% bad tokens | about 2 minutes |',
    '',
  );
  if (node)
    speed.push(
      `## Full verify in Node`,
      '',
      `_${envLine(node.env)}_`,
      '',
      'Ratios use edgejwt `verifySync`; its async `verify` is shown beside it. Caches off everywhere.',
      '',
      ...headline(node, nodeOurs, 'verify (async)'),
      '',
      ...rustLines(node, nodeAlone, nodeOurs),
      '',
      ...keyPathLines(node),
      '',
      '![ops/s per library in Node](../bench/results/ops-node.svg)',
      '',
    );
  if (workerd)
    speed.push(
      `## Full verify inside workerd`,
      '',
      `_${envLine(workerd.env)}_`,
      '',
      ...headline(workerd, workerdOurs),
      '',
      ...inconsistency(workerd, 'inside workerd').flatMap((l) => [l, '']),
      ...rustLines(workerd, workerdAlone, workerdOurs),
      '',
      ...keyPathLines(workerd),
      '',
      '![ops/s per library in workerd](../bench/results/ops-workerd.svg)',
      '',
    );
  if (sweep) {
    const hs = sweep.HS256 as Sample[] | undefined;
    const hit = hs?.find((s) => s.name === 'hit, cache 1k full');
    speed.push(
      '## Per-isolate verify cache',
      '',
      `A hit costs ${hit ? formatNs(hit.medianNs) : '?'} (HS256, a fresh copy of the token string). With ` +
        `${sweep.population.toLocaleString('en-US')} live tokens and a Zipf(s=1) request mix, steady-state hit ` +
        `rates by cache size: ${Object.entries(sweep.hitRates)
          .map(([k, v]) => `${Number(k) / 1000}k → ${(v * 100).toFixed(0)}%`)
          .join(', ')}.`,
      '',
    );
    for (const alg of ['EdDSA', 'ES256'])
      if (sweep[alg])
        speed.push(
          formatTable(
            `${alg}: mean cost per request`,
            sweep[alg] as Sample[],
            'no cache (verify every request)',
          ).replace(/^### /, '#### '),
          '',
        );
  }
  speed.push(...composedSections('##'));
  speed.push(...assertionSection('##'));
  if (iso)
    speed.push(
      '## The route guard in workerd (Miniflare)',
      '',
      `_${envLine(iso.env)}_`,
      '',
      'Latencies are wall time as a client on loopback sees it, so they include the local HTTP hop: compare ' +
        'with the no-op Worker.',
      '',
      ...isolateSections(iso),
      '![cold and warm latency](../bench/results/latency-isolate.svg)',
      '',
    );
  if (prof)
    speed.push(
      '### Where the first request goes',
      '',
      `_${envLine(prof.env)}_`,
      '',
      ...profileSection(prof),
      ...coldNotes(),
    );
  if (load)
    speed.push(
      '## Under load (`wrangler dev`)',
      '',
      `_${envLine(load.env, ['wrangler', 'autocannon'])}_`,
      '',
      ...loadTable(load),
      '',
      '`wrangler dev` adds its own proxy in front of workerd; the public-path row is the floor of that setup, ' +
        'not of the guard.',
      '',
    );
  speed.push('## Which algorithms use the KV verify cache', '', ...kvVerdict(), '');
  if (writes) speed.push('## KV verify-cache writes by admission policy', '', ...writesSection(writes));
  if (fleet)
    speed.push(
      '## Key sets across a fleet: the cold path users pay for (simulation)',
      '',
      `_${envLine(fleet.env)}_`,
      '',
      ...fleetSection(fleet),
    );
  const p = join(benchDir, '..', 'docs', 'speed.md');
  writeFileSync(p, speed.join('\n') + '\n');
  console.log(`wrote ${p}`);
  // The README's Speed headline, from the same two tables, and its cold-start bullet.
  const readme = join(benchDir, '..', 'README.md');
  let text = readFileSync(readme, 'utf8');
  if (node && workerd)
    text = replaceBlock(
      text,
      readmeSpeed(node, workerd, {
        verify: verify as never,
        ed25519: read('ed25519-node'),
        wasm: read('wasm-startup'),
      }),
    );
  writeFileSync(readme, replaceMarked(text, 'cold-start', coldStartBullet(iso), 'README.md'));
  console.log(`wrote ${readme} (speed headline, cold-start bullet)`);
  const api = join(benchDir, '..', 'docs', 'api.md');
  writeFileSync(
    api,
    replaceMarked(readFileSync(api, 'utf8'), 'freeze-cost', freezeCost(read<FreezeRun>('freeze')), 'docs/api.md'),
  );
  console.log(`wrote ${api} (freeze cost)`);
}
