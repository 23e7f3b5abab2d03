// How many KV writes the guard's verify-cache write policy saves, on a Zipf mix.
// A replay, not a timing: several isolates, each with the guard's own L1 class and
// admission class (from dist/), share one KV verify cache; requests follow a
// Zipf(s=1) law over the live tokens and land on a random isolate; the clock
// advances at a steady request rate. Per policy: KV writes (what costs money: the
// free plan allows 1,000 a day), KV reads, L2 hits and full verifies.
// Run: npm run build && node bench/guard/l2-writes.ts   (BENCH_SMOKE=1: seconds)
import { VerifyCache } from '../../dist/cache.js';
import { WriteAdmission, type Admission } from '../../dist/worker/l2-admission.js';
import { smoke } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { mulberry32, zipfSequence } from '../lib/zipf.ts';

const POPULATION = smoke ? 2_000 : 20_000;
const REQUESTS = smoke ? 20_000 : 300_000;
const ISOLATES = 8;
const RATE = 100; // requests per second over all isolates
const L1_MAX = 1000;
const TTL_S = 300; // cache.verifyTtl default
const ZIPF_S = 1.0;

interface Policy {
  name: string;
  mode: Admission;
  perMinute: number;
}
const POLICIES: Policy[] = [
  { name: 'always, no budget (the guard before)', mode: 'always', perMinute: 1e9 },
  { name: 'seen-twice, no budget', mode: 'seen-twice', perMinute: 1e9 },
  { name: 'seen-twice, 60/min per isolate (default)', mode: 'seen-twice', perMinute: 60 },
  { name: 'seen-twice, 5/min per isolate', mode: 'seen-twice', perMinute: 5 },
];

const env = environment();
printEnvironment(env);
const seq = zipfSequence(POPULATION, REQUESTS, ZIPF_S, 7);
const tokens = Array.from({ length: POPULATION }, (_, i) => `token-${i}`);

function replay(p: Policy) {
  const isolates = Array.from({ length: ISOLATES }, () => ({
    l1: new VerifyCache<true>(L1_MAX, TTL_S),
    admission: new WriteAdmission({ mode: p.mode, perMinute: p.perMinute, capacity: L1_MAX }),
  }));
  const kv = new Map<string, number>(); // token -> expires at, ms
  const pick = mulberry32(11);
  const n = { writes: 0, reads: 0, l2Hits: 0, verifies: 0, heldBack: 0, overBudget: 0, l1Hits: 0 };
  const write = (iso: (typeof isolates)[number], token: string, now: number) => {
    const v = iso.admission.decide(token, now);
    if (v === 'first-sighting') n.heldBack++;
    else if (v === 'over-budget') n.overBudget++;
    else {
      n.writes++;
      kv.set(token, now + TTL_S * 1000);
    }
  };
  for (let i = 0; i < REQUESTS; i++) {
    const now = (i / RATE) * 1000;
    const iso = isolates[Math.floor(pick() * ISOLATES)]!;
    // A fresh copy, as a header would give it.
    const token = `${tokens[seq[i]!]!}`.slice(0);
    if (iso.l1.get(token, now) !== undefined) {
      n.l1Hits++;
      if (iso.admission.waiting(token)) write(iso, token, now);
      continue;
    }
    n.reads++;
    const until = kv.get(token);
    if (until !== undefined && until > now) {
      n.l2Hits++;
      iso.l1.set(token, true, now, -Infinity, now + TTL_S * 1000);
      continue;
    }
    n.verifies++;
    iso.l1.set(token, true, now, -Infinity, now + TTL_S * 1000);
    write(iso, token, now);
  }
  return n;
}

const rows = POLICIES.map((p) => ({ policy: p.name, ...replay(p) }));
const base = rows[0]!.writes;
const minutes = REQUESTS / RATE / 60;
console.log(
  [
    '',
    `### KV verify-cache writes by policy: ${REQUESTS.toLocaleString('en-US')} requests over ` +
      `${minutes.toFixed(0)} min, ${ISOLATES} isolates, Zipf(s=${ZIPF_S}) over ` +
      `${POPULATION.toLocaleString('en-US')} live tokens, L1 ${L1_MAX}`,
    '',
    '| policy | KV writes | writes saved | KV reads | L2 hits | full verifies | held back (first sighting) | ' +
      'over budget |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.policy} | ${r.writes.toLocaleString('en-US')} | ${(100 * (1 - r.writes / base)).toFixed(0)}% | ` +
        `${r.reads.toLocaleString('en-US')} | ${r.l2Hits.toLocaleString('en-US')} | ` +
        `${r.verifies.toLocaleString('en-US')} | ${r.heldBack.toLocaleString('en-US')} | ` +
        `${r.overBudget.toLocaleString('en-US')} |`,
    ),
    '',
  ].join('\n'),
);
console.log(
  'wrote ' +
    writeResults('l2-writes', {
      env,
      population: POPULATION,
      requests: REQUESTS,
      isolates: ISOLATES,
      rate: RATE,
      l1Max: L1_MAX,
      ttlSeconds: TTL_S,
      zipfS: ZIPF_S,
      rows,
    }),
);
