// The two scenarios of bench/guard/cold-local.ts that wait for a limit to pass (issue 35 item 4), run against
// the same rig (wrangler dev processes sharing one persist dir, the provider on 127.0.0.1):
// - an outage past `jwks.staleMs`: fresh isolates started inside the stale window verify from a tier without
//   waiting past the fetch deadline; after it every isolate, a warm one kept running included, answers 503,
//   never a pass; then the provider returns and isolates verify again;
// - a key the provider drops: how long after the drop each isolate, warm or fresh, still accepts a token
//   signed with it, against `jwks.maxAgeMs` counted from the last fetch before the drop.
// Small jwks.maxAgeMs and jwks.staleMs stand for the defaults (10 min, 1 h), which a bench cannot wait for.
import { rmSync } from 'node:fs';
import { join } from 'node:path';

/** What the scenarios need from cold-local.ts. */
export interface Rig<I extends { port: number }> {
  /** An edgejwt guard's wrangler file with these `jwks` settings; `label` names its Worker (one per live process). */
  config(jwks: Record<string, number>, label: string): string;
  start(config: string, persist: string): Promise<I>;
  stop(isolate: I): Promise<void>;
  request(port: number, token: string): Promise<{ status: number; ms: number }>;
  /** A token signed with the key `kid` (k1 or k2). */
  token(kid: 'k1' | 'k2'): string;
  provider: {
    /** When each fetch arrived, and when each 200 was sent (the set's age counts from about then). */
    fetchesAt: number[];
    servedAt: number[];
    /** Undefined: serve the set; 'hang': answer nothing (the caller's deadline ends it). */
    fail(mode: 'hang' | undefined): void;
    /** The kids the served set holds. */
    keys(kids: ('k1' | 'k2')[]): void;
  };
  dir: string;
  log(line: string): void;
}

interface Probe {
  /** Seconds from the scenario's reference time (see each scenario) to the request's start. */
  at: number;
  status: number;
  ms: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const r1 = (v: number) => Math.round(v * 10) / 10;
const r2 = (v: number) => Math.round(v * 100) / 100;

/** Requests `token()` on `port` every `everyMs` (or right after a slower answer) until stopped. */
function probe(rig: Rig<{ port: number }>, port: number, kid: 'k1' | 'k2', zero: number, everyMs = 500) {
  const probes: Probe[] = [];
  let on = true;
  const done = (async () => {
    while (on) {
      const at = Date.now();
      const r = await rig.request(port, rig.token(kid)).catch(() => ({ status: 0, ms: Date.now() - at }));
      probes.push({ at: r2((at - zero) / 1000), status: r.status, ms: r1(r.ms) });
      await sleep(everyMs - (Date.now() - at));
    }
  })();
  const stop = async () => {
    on = false;
    await done;
  };
  /** Resolves once `seen` holds for a probe, or after `ms`. */
  const until = async (seen: (p: Probe) => boolean, ms: number) => {
    const end = Date.now() + ms;
    while (!probes.some(seen) && Date.now() < end) await sleep(100);
  };
  return { probes, stop, until };
}

const counts = (xs: { status: number }[]) =>
  Object.fromEntries(
    [...new Set(xs.map((x) => x.status))].sort().map((s) => [s, xs.filter((x) => x.status === s).length]),
  );

export interface PastStaleOptions {
  maxAgeMs: number;
  staleMs: number;
  timeoutMs: number;
  cooldownMs: number;
  /** Fresh isolates started one after another inside the stale window (fewer if it closes first), then past it. */
  inside: number;
  past: number;
}

/**
 * The outage past staleMs. Times are seconds from when the provider sent the set the warm isolate filled the
 * tiers with: fresh until maxAgeMs, stale until maxAgeMs + staleMs (`end`), then refused.
 */
export async function outagePastStale<I extends { port: number }>(rig: Rig<I>, o: PastStaleOptions) {
  const jwks = { maxAgeMs: o.maxAgeMs, staleMs: o.staleMs, timeoutMs: o.timeoutMs, cooldownMs: o.cooldownMs };
  const state = join(rig.dir, 'past-stale');
  rmSync(state, { recursive: true, force: true });
  const cfg = rig.config(jwks, 'stale');
  const from = rig.provider.fetchesAt.length;
  const started = Date.now();
  const warm = await rig.start(rig.config(jwks, 'stale-warm'), state);
  const startMs = Date.now() - started;
  try {
    const fill = await rig.request(warm.port, rig.token('k1'));
    const zero = rig.provider.servedAt.at(-1)!;
    const end = o.maxAgeMs + o.staleMs;
    const at = () => (Date.now() - zero) / 1000;
    const w = probe(rig, warm.port, 'k1', zero);
    await sleep(500); // the fill's waitUntil writes land
    rig.provider.fail('hang');
    const downAt = at();
    const fresh = async () => {
      const iso = await rig.start(cfg, state);
      try {
        const before = rig.provider.fetchesAt.length;
        const t = at();
        const r = await rig.request(iso.port, rig.token('k1'));
        await sleep(300);
        return { at: r2(t), status: r.status, ms: r1(r.ms), fetches: rig.provider.fetchesAt.length - before };
      } finally {
        await rig.stop(iso);
      }
    };
    await sleep(zero + o.maxAgeMs + 200 - Date.now());
    rig.log(`past staleMs: stale from ${o.maxAgeMs / 1000} s, refused from ${end / 1000} s; now ${r1(at())} s`);
    // One started every second, each only if it can start (as long as the warm one took, and half again) before
    // the window ends; they overlap.
    const launches = Array.from({ length: o.inside }, (_, i) => zero + o.maxAgeMs + 200 + i * 1000);
    const inside = await Promise.all(
      launches.filter((t) => t + 1.5 * startMs < zero + end).map(async (t) => (await sleep(t - Date.now()), fresh())),
    );
    await sleep(zero + end + EDGE_MS - Date.now());
    const past = [];
    for (let i = 0; i < o.past; i++) past.push(await fresh());
    await w.until((p) => p.at > (end + EDGE_MS) / 1000 + 1, 10_000);
    rig.provider.fail(undefined);
    const upAt = at();
    rig.log(`past staleMs: provider back at ${r1(upAt)} s`);
    // Recovery: the warm isolate, and a fresh one probed until it verifies (within the cooldown, plus slack).
    const back = await rig.start(cfg, state);
    const b = probe(rig, back.port, 'k1', zero);
    await b.until((p) => p.status === 200, o.cooldownMs + 15_000);
    await b.stop();
    await rig.stop(back);
    await w.until((p) => p.at > upAt && p.status === 200, o.cooldownMs + 15_000);
    await w.stop();
    const phase = (t: number) =>
      t < downAt
        ? 'up'
        : t >= upAt
          ? 'back'
          : t < o.maxAgeMs / 1000
            ? 'fresh'
            : t < end / 1000
              ? 'stale'
              : t < (end + EDGE_MS) / 1000
                ? 'edge'
                : 'past';
    const byPhase = (xs: Probe[]) => {
      const out: Record<string, { n: number; statuses: Record<string, number>; maxMs: number }> = {};
      for (const ph of ['up', 'fresh', 'stale', 'edge', 'past', 'back']) {
        const ys = xs.filter((x) => phase(x.at) === ph);
        if (ys.length > 0) out[ph] = { n: ys.length, statuses: counts(ys), maxMs: Math.max(...ys.map((y) => y.ms)) };
      }
      return out;
    };
    const firstOk = (xs: Probe[]) => xs.find((x) => x.at > upAt && x.status === 200)?.at;
    const pastWarm = w.probes.filter((p) => phase(p.at) === 'past');
    const pastFresh = [...inside, ...past].filter((r) => phase(r.at) === 'past');
    return {
      settings: jwks,
      delayMsAfterFail: 'hang',
      fill: { status: fill.status, ms: r1(fill.ms) },
      times: { staleAt: o.maxAgeMs / 1000, end: end / 1000, down: r2(downAt), up: r2(upAt) },
      inside,
      past,
      warm: byPhase(w.probes),
      warmProbes: w.probes,
      // Past the window: any 200 would be a pass on a set older than the guard may use.
      passesPast: [...pastWarm, ...pastFresh].filter((x) => x.status === 200).length,
      requestsPast: pastWarm.length + pastFresh.length,
      recovery: {
        warmS: firstOk(w.probes) === undefined ? undefined : r2(firstOk(w.probes)! - upAt),
        freshS: firstOk(b.probes) === undefined ? undefined : r2(firstOk(b.probes)! - upAt),
        freshFirstRequest: b.probes[0] === undefined ? undefined : r2(b.probes[0].at - upAt),
        freshStatuses: counts(b.probes),
      },
      fetches: rig.provider.fetchesAt.length - from,
      fetchesDown: rig.provider.fetchesAt.filter((t) => t >= zero + downAt * 1000 && t < zero + upAt * 1000).length,
    };
  } finally {
    rig.provider.fail(undefined);
    await rig.stop(warm);
  }
}

/** Past the window's computed end, requests this close to it are not counted either way: the isolate's clock
 * starts the set's life when it has read the response, a few ms after the provider sent it. */
const EDGE_MS = 250;

export interface RemovalOptions {
  maxAgeMs: number;
  /** When the provider drops k1, after it sent the set: not a multiple of maxAgeMs, so a set stays in use. */
  dropAfterMs: number;
  /**
   * Fresh isolates, one launched every staggerMs from the fill (a `wrangler dev` start takes seconds), each sent
   * its first request no sooner than the drop and probed until it refuses k1.
   */
  isolates: number;
  staggerMs: number;
}

/** Key removal. Times are seconds from the drop; the bound is the last fetch before it plus maxAgeMs. */
export async function keyRemoval<I extends { port: number }>(rig: Rig<I>, o: RemovalOptions) {
  const state = join(rig.dir, 'removal');
  rmSync(state, { recursive: true, force: true });
  const from = rig.provider.fetchesAt.length;
  rig.provider.keys(['k1', 'k2']);
  const warm = await rig.start(rig.config({ maxAgeMs: o.maxAgeMs }, 'removal-warm'), state);
  try {
    const fill = await rig.request(warm.port, rig.token('k1'));
    const filled = Date.now();
    const dropAt = rig.provider.servedAt.at(-1)! + o.dropAfterMs;
    // Give up on an isolate that still accepts k1 this long after the drop (the bound is well inside it).
    const limit = dropAt + o.maxAgeMs + 20_000;
    const w = probe(rig, warm.port, 'k1', dropAt);
    const fresh = Array.from({ length: o.isolates }, async (_, i) => {
      await sleep(filled + i * o.staggerMs - Date.now());
      const started = r2((Date.now() - dropAt) / 1000);
      const iso = await rig.start(rig.config({ maxAgeMs: o.maxAgeMs }, `removal-${i}`), state);
      try {
        await sleep(dropAt - Date.now());
        const p = probe(rig, iso.port, 'k1', dropAt);
        await p.until((x) => x.status !== 200, limit - Date.now());
        await p.stop();
        return { started, probes: p.probes };
      } finally {
        await rig.stop(iso);
      }
    });
    await sleep(dropAt - Date.now());
    rig.provider.keys(['k2']);
    const lastFetch = Math.max(...rig.provider.servedAt.filter((t) => t <= dropAt));
    const bound = (lastFetch + o.maxAgeMs - dropAt) / 1000;
    rig.log(`removal: k1 dropped ${o.dropAfterMs} ms after a fetch; bound ${r2(bound)} s after the drop`);
    const freshRuns = await Promise.all(fresh);
    await w.until((x) => x.at > 0 && x.status !== 200, limit - Date.now());
    await w.stop();
    const control = await rig.request(warm.port, rig.token('k2'));
    const after = (xs: Probe[]) => xs.filter((x) => x.at >= 0);
    const summary = (kind: string, probes: Probe[], started?: number) => {
      const ys = after(probes);
      const firstNo = ys.find((x) => x.status !== 200);
      return {
        kind,
        ...(started === undefined ? {} : { started, firstRequest: ys[0]?.at }),
        lastPass: ys.filter((x) => x.status === 200).at(-1)?.at,
        refused: firstNo?.at,
        refusedWith: firstNo?.status,
        statuses: counts(ys),
      };
    };
    const isolates = [
      summary('warm', w.probes),
      ...freshRuns.map((r, i) => summary(`fresh ${i + 1}`, r.probes, r.started)),
    ];
    const worst = (k: 'lastPass' | 'refused') => Math.max(...isolates.map((x) => x[k] ?? -Infinity));
    return {
      maxAgeMs: o.maxAgeMs,
      dropAfterFetchMs: o.dropAfterMs,
      fill: { status: fill.status, ms: r1(fill.ms) },
      bound: r2(bound),
      isolates,
      worstLastPass: worst('lastPass'),
      worstRefused: worst('refused'),
      allRefused: isolates.every((x) => x.refused !== undefined),
      passesPastBound: [w.probes, ...freshRuns.map((r) => r.probes)]
        .flat()
        .filter((x) => x.at > bound + EDGE_MS / 1000 && x.status === 200).length,
      k2AfterStatus: control.status,
      fetches: rig.provider.fetchesAt.length - from,
    };
  } finally {
    rig.provider.keys(['k1']);
    await rig.stop(warm);
  }
}
