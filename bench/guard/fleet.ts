// A fleet simulation of the key-set cold path (issue 35): N data centres, each with
// isolate slots that are replaced by fresh isolates over time, in front of one
// identity provider. Deterministic: a seeded PRNG and a virtual clock (setTimeout is
// replaced by an event queue, so the library's own deadlines, claims and polls run in
// virtual time). The tier logic is the real one: edgejwt's RemoteJWKSet from dist/
// with in-memory stores that add the modelled latencies; jose's createRemoteJWKSet is
// modelled by the same class with jose's defaults (memory only, no stale set); hono's
// `jwk` middleware fetches the key set on every request (node_modules/hono/dist/utils/
// jwt/jwt.js, verifyWithJwks), which is modelled directly.
// Latencies are modelled (figures and sources in LATENCY below); in-isolate first-request
// costs are measured (bench/results/isolate.json). Writes bench/results/fleet.json and
// bench/results/fleet.svg. Run: npm run build && node bench/guard/fleet.ts
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRemoteJWKSet, type JWKSStore, type RemoteJWKSet } from '../../dist/index.js';
import { algSpec } from '../../dist/algorithms.js';
import type { FetchAttempt, StoredJWKS } from '../../dist/keys/store.js';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';
import { mulberry32 } from '../lib/zipf.ts';

// --- The model's figures -------------------------------------------------------
/** Modelled latencies, ms (uniform between the bounds). */
const LATENCY = {
  /** Provider round trip incl. TLS reuse, issue 35's figure (100–200 ms). Assumption. */
  provider: [100, 200],
  /** Workers KV read of a key hot in this data centre: 8–12 ms (issue 35; Cloudflare blog 2024-09-26). */
  kvHot: [8, 12],
  /** KV read that goes to the central store (first read here, or past KV's 60 s cacheTtl). Assumption. */
  kvCold: [30, 60],
  /** Cache API read or write in the data centre. Assumption (no published figure found). */
  cache: [1, 5],
  /** Isolate start: Cloudflare's published "under 5 ms" for a V8 isolate. */
  isolateStart: [5, 5],
} as const;
/** KV writes are visible in other data centres after up to 60 s (KV docs); modelled as 60 s. */
const KV_PROPAGATION_MS = 60_000;
/** The guard's defaults (config-description.ts): jwks.timeoutMs, cooldownMs, maxAgeMs. */
const TIMEOUT_MS = 3_000;
const COOLDOWN_MS = 30_000;
const MAX_AGE_MS = 600_000;
/**
 * KV prices (Workers Paid, beyond the included 10M reads / 1M writes a month),
 * developers.cloudflare.com/kv/platform/pricing.
 */
const KV_PRICE = {
  readPerMillion: 0.5,
  writePerMillion: 5.0,
  source: 'developers.cloudflare.com/kv/platform/pricing (as of 2026-12)',
};

const DCS = 10;
const SLOTS = 20; // isolates serving one data centre at a time
const RPS_PER_DC = 5;
const ISOLATE_LIFE_MS = 120_000; // mean life of an isolate (exponential): a fresh one every 6 s per DC
const RUN_MS = 35 * 60_000;
const ROTATE_AT = 10 * 60_000; // the issuer adds k2 and tokens move to it
const DROP_AT = 17 * 60_000; // the issuer drops k1 (not a multiple of the max age after the rotation)
const OUTAGE = [5 * 60_000, 15 * 60_000] as const; // the outage scenario: 10 minutes down
const SPRAY = { requests: 10_000, overMs: 60_000, isolates: 100 };

const benchDir = fileURLToPath(new URL('..', import.meta.url));

// --- Virtual time --------------------------------------------------------------
let vnow = 0;
let seqNo = 0;
/** A binary min-heap of events by (at, seq). */
const events: { at: number; seq: number; fn: () => void }[] = [];
const cancelled = new Set<number>();
const before = (a: { at: number; seq: number }, b: { at: number; seq: number }) =>
  a.at < b.at || (a.at === b.at && a.seq < b.seq);
function push(at: number, fn: () => void): number {
  const e = { at, seq: ++seqNo, fn };
  let i = events.push(e) - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!before(events[i]!, events[p]!)) break;
    [events[i], events[p]] = [events[p]!, events[i]!];
    i = p;
  }
  return e.seq;
}
function pop(): { at: number; seq: number; fn: () => void } {
  const top = events[0]!;
  const last = events.pop()!;
  if (events.length > 0) {
    events[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < events.length && before(events[l]!, events[m]!)) m = l;
      if (r < events.length && before(events[r]!, events[m]!)) m = r;
      if (m === i) break;
      [events[i], events[m]] = [events[m]!, events[i]!];
      i = m;
    }
  }
  return top;
}
const realImmediate = setImmediate;
globalThis.setTimeout = ((fn: () => void, ms?: number) =>
  push(vnow + Math.max(0, ms ?? 0), fn)) as unknown as typeof setTimeout;
globalThis.clearTimeout = ((id: number) => void cancelled.add(id)) as unknown as typeof clearTimeout;
const settle = async (): Promise<void> => {
  for (let i = 0; i < 2; i++) await new Promise((r) => realImmediate(r));
};
async function runUntil(end: number): Promise<void> {
  while (events.length > 0 && events[0]!.at <= end) {
    const e = pop();
    if (cancelled.delete(e.seq)) continue;
    vnow = e.at;
    e.fn();
    await settle();
  }
  vnow = end;
}
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// --- Keys and the provider ------------------------------------------------------
function rsaJwk(kid: string) {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...(publicKey.export({ format: 'jwk' }) as Record<string, string>), kid, alg: 'RS256', use: 'sig' };
}
const K1 = rsaJwk('k1');
const K2 = rsaJwk('k2');
const spec = algSpec('RS256')!;

interface World {
  rand: () => number;
  keysAt: (t: number) => object[];
  down: (t: number) => boolean;
  fetches: number[]; // times of provider fetches
  kv: { reads: number; writes: number };
}
const between = (w: World, [lo, hi]: readonly [number, number]) => lo + (hi - lo) * w.rand();

function providerFetch(w: World): typeof fetch {
  return ((_url: string, init?: RequestInit) => {
    w.fetches.push(vnow);
    const rtt = between(w, LATENCY.provider);
    return new Promise<Response>((resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      if (w.down(vnow)) return; // hangs: the caller's deadline ends it
      const body = JSON.stringify({ keys: w.keysAt(vnow) });
      setTimeout(
        () => resolve(new Response(body, { headers: { 'cache-control': `max-age=${MAX_AGE_MS / 1000}` } })),
        rtt,
      );
    });
  }) as typeof fetch;
}

// --- Tiers with modelled latency -------------------------------------------------
/** One data centre's Cache API: entries with expiry, attempt notes too. */
function coloStore(w: World): JWKSStore {
  const data = new Map<string, { v: unknown; until: number }>();
  const op = async <T>(f: () => T): Promise<T> => {
    await sleep(between(w, LATENCY.cache));
    return f();
  };
  const get = (k: string) => {
    const e = data.get(k);
    return e !== undefined && vnow < e.until ? structuredClone(e.v) : undefined;
  };
  const put = (k: string, v: unknown, ttl: number) =>
    void data.set(k, { v: structuredClone(v), until: vnow + ttl * 1000 });
  return {
    get: (url) => op(() => get(`jwks ${url}`) as StoredJWKS | undefined),
    put: (url, entry, ttl) => op(() => put(`jwks ${url}`, entry, ttl)),
    getAttempt: (url) => op(() => get(`attempt ${url}`) as FetchAttempt | undefined),
    putAttempt: (url, a, ttl) => op(() => put(`attempt ${url}`, a, ttl)),
  };
}

/** Workers KV: one store for the fleet, writes visible elsewhere after KV_PROPAGATION_MS, hot per DC for 60 s. */
function kvFleet(w: World) {
  const versions: { v: unknown; at: number; dc: number; until: number }[] = [];
  const lastRead = new Map<number, number>();
  return (dc: number): JWKSStore => ({
    get: async () => {
      w.kv.reads++;
      const hot = vnow - (lastRead.get(dc) ?? -Infinity) < 60_000;
      lastRead.set(dc, vnow);
      await sleep(between(w, hot ? LATENCY.kvHot : LATENCY.kvCold));
      const seen = versions.filter((x) => x.dc === dc || vnow - x.at >= KV_PROPAGATION_MS);
      const last = seen[seen.length - 1];
      return last !== undefined && vnow < last.until ? (structuredClone(last.v) as StoredJWKS) : undefined;
    },
    put: async (_url, entry, ttl) => {
      w.kv.writes++;
      versions.push({ v: structuredClone(entry), at: vnow, dc, until: vnow + Math.max(60, ttl) * 1000 });
      if (versions.length > 64) versions.splice(0, versions.length - 64);
    },
  });
}

// --- Peers ------------------------------------------------------------------------
interface Peer {
  name: string;
  /**
   * Measured in-isolate first-request cost over a no-op Worker, ms (bench/results/isolate.json, RS256 p50): `loader`
   * with the module evaluated inside the first request (a fresh Worker Loader isolate), `handshake` with it evaluated
   * before the request arrives (a fresh workerd process), as Cloudflare starts an isolate during the TLS handshake.
   */
  own: { loader: number; handshake: number };
  make: (w: World, dc: number, colo: JWKSStore, kv: JWKSStore) => (kid: string) => Promise<boolean>;
}

function viaSet(set: RemoteJWKSet) {
  return async (kid: string): Promise<boolean> => {
    try {
      await set.select(spec, kid);
      return true;
    } catch {
      return false;
    }
  };
}

const iso = JSON.parse(readFileSync(join(benchDir, 'results/isolate.json'), 'utf8')) as {
  env: { date: string };
  isolateCold: Record<string, { first: Record<string, { p50: number }> }>;
  processCold: Record<string, { first: Record<string, { p50: number }> }>;
};
const loader = iso.isolateCold.RS256!.first;
const handshake = iso.processCold.RS256!.first;
const ownOf = (kind: 'compiled' | 'jose') => ({
  loader: loader[kind]!.p50 - loader.noop!.p50,
  handshake: handshake[kind]!.p50 - handshake.noop!.p50,
});
const own = { compiled: ownOf('compiled'), jose: ownOf('jose') };

const base = {
  timeoutDuration: TIMEOUT_MS,
  cooldownDuration: COOLDOWN_MS,
  cacheMaxAge: MAX_AGE_MS,
  cacheMinAge: 30_000,
  now: () => vnow,
};
const PEERS: Peer[] = [
  {
    name: 'edgejwt: memory → colo → KV → network',
    own: own.compiled,
    make: (w, _dc, colo, kv) =>
      viaSet(
        createRemoteJWKSet('https://idp.example/jwks', {
          ...base,
          fetch: providerFetch(w),
          store: [colo, kv],
          waitUntil: () => undefined,
        }),
      ),
  },
  {
    name: 'edgejwt without Cache API: memory → KV → network',
    own: own.compiled,
    make: (w, _dc, _colo, kv) =>
      viaSet(
        createRemoteJWKSet('https://idp.example/jwks', {
          ...base,
          fetch: providerFetch(w),
          store: kv,
          waitUntil: () => undefined,
        }),
      ),
  },
  {
    // jose 6 createRemoteJWKSet: memory only, cooldown 30 s, max age 10 min, no stale set on failure.
    name: 'jose createRemoteJWKSet: memory → network',
    own: own.jose,
    make: (w) =>
      viaSet(createRemoteJWKSet('https://idp.example/jwks', { ...base, fetch: providerFetch(w), staleDuration: 0 })),
  },
  {
    // hono jwk: a fetch per request, no cache (its fetch has no timeout: modelled with the same 3 s as the others, at
    // best).
    name: 'hono jwk: network every request',
    own: own.jose,
    make: (w) => {
      const f = providerFetch(w);
      return async (kid) => {
        const ctl = new AbortController();
        const timer = setTimeout(() => ctl.abort(), TIMEOUT_MS);
        try {
          const res = await f('https://idp.example/jwks', { signal: ctl.signal });
          const keys = ((await res.json()) as { keys: { kid: string }[] }).keys;
          return keys.some((k) => k.kid === kid);
        } catch {
          return false;
        } finally {
          clearTimeout(timer);
        }
      };
    },
  },
];

// --- One run: a scenario for one peer ---------------------------------------------
interface Scenario {
  name: string;
  dcs: number;
  slots: number;
  /** Requests: [time, dc, kid chooser]. */
  requests: (rand: () => number) => { at: number; dc: number; kid: () => string; probe?: boolean }[];
  down: (t: number) => boolean;
  keysAt: (t: number) => object[];
  lifeMs: number;
  durationMs: number;
}

interface Outcome {
  /** A fresh isolate's first request: isolate start and key-set I/O, without the peer's own cost. */
  firstMs: number[];
  fetches: number[];
  requests: number;
  passed: number;
  kv: { reads: number; writes: number };
  lastOldKidPass: number;
  firstFailedAt: number;
}

async function run(peer: Peer, sc: Scenario, seed: number): Promise<Outcome> {
  vnow = 0;
  events.length = 0;
  cancelled.clear();
  const rand = mulberry32(seed);
  const w: World = { rand, keysAt: sc.keysAt, down: sc.down, fetches: [], kv: { reads: 0, writes: 0 } };
  const kvFor = kvFleet(w);
  const dcs = Array.from({ length: sc.dcs }, (_, dc) => ({
    colo: coloStore(w),
    kv: kvFor(dc),
    slots: [] as { verify: (kid: string) => Promise<boolean>; until: number; used: boolean }[],
  }));
  const out: Outcome = {
    firstMs: [],
    fetches: w.fetches,
    requests: 0,
    passed: 0,
    kv: w.kv,
    lastOldKidPass: -Infinity,
    firstFailedAt: Infinity,
  };
  const life = () => -Math.log(1 - rand()) * sc.lifeMs;
  // Every data centre starts warm: one request on a first isolate before the clock starts counting.
  const reqs = sc.requests(rand);
  for (const r of reqs) {
    push(r.at, () => {
      const d = dcs[r.dc]!;
      const i = Math.floor(rand() * sc.slots);
      let slot = d.slots[i];
      if (slot === undefined || vnow >= slot.until) {
        slot = { verify: peer.make(w, r.dc, d.colo, d.kv), until: vnow + life(), used: false };
        d.slots[i] = slot;
      }
      const first = !slot.used;
      slot.used = true;
      const kid = r.kid();
      const start = vnow;
      const startup = first ? between(w, LATENCY.isolateStart) : 0;
      void slot.verify(kid).then((ok) => {
        out.requests++;
        if (ok) out.passed++;
        else if (!r.probe) out.firstFailedAt = Math.min(out.firstFailedAt, start);
        if (r.probe && ok) out.lastOldKidPass = Math.max(out.lastOldKidPass, start);
        if (first && !r.probe) out.firstMs.push(vnow - start + startup);
      });
    });
  }
  await runUntil(sc.durationMs + 60_000);
  return out;
}

// --- Scenarios --------------------------------------------------------------------
function steady(rand: () => number, dcs: number, untilMs: number, kidAt: (t: number) => string) {
  const out: { at: number; dc: number; kid: () => string; probe?: boolean }[] = [];
  for (let dc = 0; dc < dcs; dc++) {
    for (let t = rand() * 1000; t < untilMs; t += (-Math.log(1 - rand()) * 1000) / RPS_PER_DC)
      out.push({ at: t, dc, kid: () => kidAt(t) });
  }
  return out;
}

const rotation: Scenario = {
  name: 'rotation',
  dcs: DCS,
  slots: SLOTS,
  lifeMs: ISOLATE_LIFE_MS,
  durationMs: RUN_MS,
  down: () => false,
  keysAt: (t) => (t < ROTATE_AT ? [K1] : t < DROP_AT ? [K1, K2] : [K2]),
  requests: (rand) => {
    const out = steady(rand, DCS, RUN_MS, (t) => (t < ROTATE_AT ? 'k1' : 'k2'));
    // Probes with the dropped kid, once a second per data centre, from the drop on.
    for (let dc = 0; dc < DCS; dc++)
      for (let t = DROP_AT; t < RUN_MS; t += 1000) out.push({ at: t + dc, dc, kid: () => 'k1', probe: true });
    return out;
  },
};

const outage: Scenario = {
  name: 'outage',
  dcs: DCS,
  slots: SLOTS,
  lifeMs: ISOLATE_LIFE_MS,
  durationMs: 20 * 60_000,
  down: (t) => t >= OUTAGE[0] && t < OUTAGE[1],
  keysAt: () => [K1],
  requests: (rand) => steady(rand, DCS, 20 * 60_000, () => 'k1'),
};

const spray: Scenario = {
  name: 'kid spray',
  dcs: 1,
  slots: SPRAY.isolates,
  lifeMs: 3_600_000,
  durationMs: 3 * 60_000,
  down: () => false,
  keysAt: () => [K1],
  requests: (rand) => {
    const out = steady(rand, 1, 60_000, () => 'k1');
    for (let i = 0; i < SPRAY.requests; i++) {
      out.push({
        at: 60_000 + rand() * SPRAY.overMs,
        dc: 0,
        kid: () => `spray-${Math.floor(rand() * 1e9)}`,
        probe: true,
      });
    }
    return out;
  },
};

// --- Run and report -----------------------------------------------------------------
const env = environment(['jose', 'hono']);
printEnvironment(env);
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const perMinute = (ts: number[], from: number, to: number) =>
  (ts.filter((t) => t >= from && t < to).length * 60_000) / (to - from);

const rows: Record<string, number | string>[] = [];
for (const [i, peer] of PEERS.entries()) {
  const r = await run(peer, rotation, 1000 + i);
  const o = await run(peer, outage, 2000 + i);
  const s = await run(peer, spray, 3000 + i);
  const sprayFetches = s.fetches.filter((t) => t >= 60_000 && t < 120_000).length;
  rows.push({
    peer: peer.name,
    ownMs: +peer.own.loader.toFixed(1),
    firstP50: +(pct(r.firstMs, 50) + peer.own.loader).toFixed(1),
    firstP99: +(pct(r.firstMs, 99) + peer.own.loader).toFixed(1),
    ownHandshakeMs: +peer.own.handshake.toFixed(1),
    firstHandshakeP50: +(pct(r.firstMs, 50) + peer.own.handshake).toFixed(1),
    firstHandshakeP99: +(pct(r.firstMs, 99) + peer.own.handshake).toFixed(1),
    fetchesPerMin: +perMinute(r.fetches, 60_000, DROP_AT).toFixed(1),
    probeFetchesPerMin: +perMinute(r.fetches, DROP_AT + 60_000, RUN_MS).toFixed(1),
    kvReadsPerM: Math.round((r.kv.reads / r.requests) * 1e6),
    kvWritesPerM: Math.round((r.kv.writes / r.requests) * 1e6),
    kvCostPerM: +(
      ((r.kv.reads / r.requests) * 1e6 * KV_PRICE.readPerMillion +
        (r.kv.writes / r.requests) * 1e6 * KV_PRICE.writePerMillion) /
      1e6
    ).toFixed(4),
    dropSeconds: r.lastOldKidPass === -Infinity ? 0 : Math.round((r.lastOldKidPass - DROP_AT) / 1000),
    outagePassPct: +((100 * o.passed) / o.requests).toFixed(2),
    outageFirstP50: +(pct(o.firstMs, 50) + peer.own.loader).toFixed(1),
    outageFirstP99: +(pct(o.firstMs, 99) + peer.own.loader).toFixed(0),
    outageFetchesPerMin: +perMinute(o.fetches, OUTAGE[0], OUTAGE[1]).toFixed(1),
    outageFirstFail: o.firstFailedAt === Infinity ? 'none' : `${((o.firstFailedAt - OUTAGE[0]) / 1000).toFixed(0)} s`,
    sprayFetches,
    sprayFetchesPerCooldown: +(sprayFetches / (SPRAY.overMs / COOLDOWN_MS)).toFixed(1),
  });
  console.log(JSON.stringify(rows[rows.length - 1]));
}

// The KV verify cache (L2) adds its own KV traffic for ES256 (on by default): from the replay in l2-writes.json.
const l2 = JSON.parse(readFileSync(join(benchDir, 'results/l2-writes.json'), 'utf8')) as {
  requests: number;
  rows: { policy: string; writes: number; reads: number }[];
};
const l2Default = l2.rows.find((x) => x.policy.includes('(default)'))!;
const l2PerM = {
  reads: Math.round((l2Default.reads / l2.requests) * 1e6),
  writes: Math.round((l2Default.writes / l2.requests) * 1e6),
};

const model = {
  latency: LATENCY,
  kvPropagationMs: KV_PROPAGATION_MS,
  timeoutMs: TIMEOUT_MS,
  cooldownMs: COOLDOWN_MS,
  maxAgeMs: MAX_AGE_MS,
  dcs: DCS,
  slots: SLOTS,
  rpsPerDc: RPS_PER_DC,
  isolateLifeMs: ISOLATE_LIFE_MS,
  runMs: RUN_MS,
  rotateAt: ROTATE_AT,
  dropAt: DROP_AT,
  outage: OUTAGE,
  spray: SPRAY,
  kvPrice: KV_PRICE,
  ownCostFrom:
    `bench/results/isolate.json (${iso.env.date.slice(0, 10)}), RS256 p50 minus the no-op Worker's: a fresh Loader ` +
    `isolate (the module evaluated inside the first request), and a fresh workerd process (evaluated before it)`,
  l2PerMillion: l2PerM,
};
writeFileSync(join(benchDir, 'results/fleet.svg'), chart(rows));
console.log(`wrote ${writeResults('fleet', { env, model, rows })}`);

/** Two bar panels: first-request p50/p99 on a fresh isolate, and provider fetches per minute (log scale). */
function chart(rs: Record<string, number | string>[]): string {
  const W = 860;
  const left = 300;
  const barH = 14;
  const colours = ['#2b8a3e', '#74b816', '#1c7ed6', '#e8590c'];
  const panel = (title: string, y0: number, values: number[], fmt: (v: number) => string, log: boolean) => {
    const max = Math.max(...values, 1);
    const x = (v: number) => (log ? Math.log10(1 + v) / Math.log10(1 + max) : v / max) * (W - left - 80);
    const parts = [`<text x="10" y="${y0}" font-size="13" font-weight="600">${title}</text>`];
    values.forEach((v, i) => {
      const y = y0 + 12 + i * (barH + 6);
      parts.push(
        `<text x="${left - 8}" y="${y + barH - 3}" font-size="11" text-anchor="end">${String(rs[i]!.peer)}</text>`,
      );
      parts.push(
        `<rect x="${left}" y="${y}" width="${Math.max(1, x(v)).toFixed(1)}" height="${barH}" fill="` +
          `${colours[i % colours.length]}"/>`,
      );
      parts.push(
        `<text x="${(left + Math.max(1, x(v)) + 4).toFixed(1)}" y="${y + barH - 3}" font-size="11">${fmt(v)}</text>`,
      );
    });
    return parts.join('');
  };
  const n = rs.length;
  const h = (n * (barH + 6) + 40) * 3 + 20;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${h}" font-family="system-ui, sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    panel(
      'First request on a fresh isolate, p99 ms (modelled I/O + measured own cost)',
      20,
      rs.map((r) => Number(r.firstP99)),
      (v) => `${v.toFixed(0)} ms`,
      false,
    ),
    panel(
      'Provider fetches per minute, steady traffic with a rotation (log scale)',
      20 + (n * (barH + 6) + 40),
      rs.map((r) => Number(r.fetchesPerMin)),
      (v) => v.toFixed(1),
      true,
    ),
    panel(
      `kid spray: provider fetches in one minute, one data centre, ${SPRAY.isolates} isolates (log scale)`,
      20 + 2 * (n * (barH + 6) + 40),
      rs.map((r) => Number(r.sprayFetches)),
      (v) => v.toFixed(0),
      true,
    ),
    '</svg>',
  ].join('\n');
}
