// docs/speed.md's paragraphs on bench/guard/cold-local-limits.ts (bench/results/cold-local-limits.json): the
// outage past jwks.staleMs and the key removal in real wrangler dev isolates, beside what the fleet model says.

interface Fresh {
  at: number;
  status: number;
  ms: number;
  fetches: number;
}
interface Phase {
  n: number;
  statuses: Record<string, number>;
  maxMs: number;
}
interface Removed {
  kind: string;
  started?: number;
  firstRequest?: number;
  lastPass?: number;
  refused?: number;
  refusedWith?: number;
}
export interface ColdLimits {
  env: Record<string, string>;
  delayMs: number;
  outagePastStale?: {
    settings: { maxAgeMs: number; staleMs: number; timeoutMs: number; cooldownMs: number };
    times: { staleAt: number; end: number; down: number; up: number };
    inside: Fresh[];
    past: Fresh[];
    warm: Record<string, Phase>;
    passesPast: number;
    requestsPast: number;
    recovery: { warmS?: number; freshS?: number; freshFirstRequest?: number };
    fetchesDown: number;
  };
  keyRemoval?: {
    maxAgeMs: number;
    dropAfterFetchMs: number;
    bound: number;
    isolates: Removed[];
    worstLastPass: number;
    worstRefused: number;
    allRefused: boolean;
    passesPastBound: number;
    k2AfterStatus: number;
  };
}
/** The fleet model's figures the paragraphs set beside the local run (bench/results/fleet.json). */
export interface FleetLimits {
  dcs: number;
  maxAgeMs: number;
  timeoutMs: number;
  cooldownMs: number;
  rotateAt: number;
  dropAt: number;
  outage: [number, number];
  edgejwt: Record<string, number | string> | undefined;
}

const statuses = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, n]) => `${n}× ${k}`)
    .join(', ');
const s = (v: number | undefined) => (v === undefined ? '—' : `${v.toFixed(2)} s`);

/**
 * The paragraphs, joined into lines for docs/speed.md.
 *
 * @example
 * lines.push(...coldLimitsLines(read('cold-local-limits'), fleetLimits, envLine));
 */
export function coldLimitsLines(x: ColdLimits, m: FleetLimits, envLine: (e: Record<string, string>) => string) {
  const out: string[] = [
    `**Past the stale window, and a dropped key, in real \`wrangler dev\` isolates** (\`BENCH_ROUNDS=0 BENCH_SPRAY_S=0` +
      ` BENCH_TOGETHER=0 BENCH_OUTAGE_ISOLATES=0 npm run bench:cold-local\`, bench/guard/cold-local-limits.ts,` +
      ` ${envLine(x.env)}). The same rig: one \`wrangler dev\` per isolate sharing a persist dir (Cache API and KV),` +
      ` the provider on 127.0.0.1 answering after ${x.delayMs} ms; small \`jwks.maxAgeMs\` and \`jwks.staleMs\` stand` +
      ' for the defaults (10 min, 1 h). Times are seconds on the run\'s clock; "warm" is one isolate kept running and' +
      ' probed every 500 ms throughout.',
    '',
  ];
  const o = x.outagePastStale;
  if (o) {
    const { settings: c, times: t } = o;
    const inside = o.inside.filter((r) => r.at < t.end);
    const waits = [...inside.map((r) => r.ms), o.warm.stale?.maxMs ?? 0];
    const maxWait = Math.max(...waits);
    const list = (rs: Fresh[]) =>
      rs
        .map(
          (r) =>
            `at ${r.at.toFixed(1)} s ${r.status} in ${r.ms.toFixed(0)} ms (${r.fetches} provider fetches meanwhile)`,
        )
        .join('; ');
    const pastFresh = o.past.filter((r) => r.at >= t.end);
    out.push(
      `Outage past \`jwks.staleMs\` (maxAgeMs ${c.maxAgeMs}, staleMs ${c.staleMs}, timeoutMs ${c.timeoutMs},` +
        ` cooldownMs ${c.cooldownMs}; the provider hangs, answering nothing, from ${t.down.toFixed(1)} s to` +
        ` ${t.up.toFixed(1)} s): the set the warm isolate filled the tiers with was sent at 0 s, so it is stale from` +
        ` ${t.staleAt} s and may not be used from ${t.end} s. Fresh isolates inside the stale window: ${list(inside)}.` +
        ` Warm, stale window: ${statuses(o.warm.stale?.statuses ?? {})}, slowest ${o.warm.stale?.maxMs ?? '—'} ms (the` +
        ` isolate that claims the fetch of each cooldown waits out the fetch deadline, plus the claim). Longest` +
        ` wait inside the window ${maxWait.toFixed(0)} ms against jwks.timeoutMs ${c.timeoutMs} ms:` +
        ` ${maxWait <= c.timeoutMs ? 'within it' : `${(maxWait - c.timeoutMs).toFixed(0)} ms over it (the tier read and the claim come on top of the fetch deadline, each bounded by cache.kvTimeoutMs + 50 ms; the local proxy's floor is in every figure)`}.` +
        ` Past the window: fresh isolates ${list(pastFresh)}; warm ${statuses(o.warm.past?.statuses ?? {})}` +
        ` (slowest ${o.warm.past?.maxMs ?? '—'} ms); **${o.passesPast} passes in ${o.requestsPast} requests**.` +
        ` ${o.fetchesDown} provider fetches during the outage (at most one per cooldown per data centre, each` +
        ` hung). Provider back: the warm isolate verifies again ${s(o.recovery.warmS)} later, a fresh isolate's` +
        ` first request (${s(o.recovery.freshFirstRequest)} after) ${o.recovery.freshS === undefined ? 'never verified' : `verified ${s(o.recovery.freshS)} after`}` +
        ` (a failure noted in the colo tier holds every isolate back for the cooldown).`,
      '',
    );
  }
  const r = x.keyRemoval;
  if (r) {
    out.push(
      `Key removal (maxAgeMs ${r.maxAgeMs}; the provider serves k1 and k2, then drops k1 ${r.dropAfterFetchMs} ms` +
        ` after the fetch that filled the tiers, so that set stays in use; fresh isolates launched every 2 s from the` +
        ` fill, each sent its first request no sooner than the drop; every isolate probed with one k1 token every 500 ms until it refuses it). Seconds after the drop;` +
        ` the bound is the last fetch before the drop plus maxAgeMs: **${r.bound.toFixed(2)} s**.`,
      '',
      '| isolate | started | first request | last pass | refused (status) |',
      '|---|---:|---:|---:|---|',
      ...r.isolates.map(
        (i) =>
          `| ${i.kind} | ${i.started === undefined ? 'before' : s(i.started)} | ${i.firstRequest === undefined ? 'before' : s(i.firstRequest)} | ${s(i.lastPass)} | ${s(i.refused)} (${i.refusedWith ?? '—'}) |`,
      ),
      '',
      `Worst case: the last pass ${s(r.worstLastPass)} after the drop, against the bound ${s(r.bound)}` +
        ` (${r.worstLastPass <= r.bound ? 'within it' : 'past it'}); ${r.passesPastBound} passes after the bound;` +
        ` every isolate refused k1 ${r.allRefused ? 'by the end' : '— not all did'} (the last at ${s(r.worstRefused)},` +
        ` an isolate that only started then), and k2 still verified (${r.k2AfterStatus}).`,
      '',
    );
  }
  const e = m.edgejwt;
  out.push(
    '**Model and local run, for these two.** Outage: the model (bench/guard/fleet.ts) takes a provider that hangs' +
      ` for ${(m.outage[1] - m.outage[0]) / 60_000} minutes inside the library's default staleDuration of 1 h (the` +
      ' guard had no setting then), so it never reaches the limit: every request passes' +
      (e
        ? ` (${e.outagePassPct}%), the claimant's first request waits out the ${m.timeoutMs / 1000} s deadline (p99 ${e.outageFirstP99} ms), ${e.outageFetchesPerMin} fetches a minute across ${m.dcs} data centres`
        : '') +
      '. Locally the same shape shows at a 1 s deadline and a 5 s cooldown (inside the window: passes, one hung' +
      ' fetch per cooldown, the claimant waits the deadline, the others do not), and the part the model leaves out' +
      ' is measured: past the window every isolate answers 503 and none passes. Removal: the model drops k1' +
      ` ${(m.dropAt - m.rotateAt) / 1000} s after the rotation made every data centre fetch, with maxAge` +
      ` ${m.maxAgeMs / 1000} s, so its bound is ${(m.rotateAt + m.maxAgeMs - m.dropAt) / 1000} s after the drop` +
      (e ? ` and its last pass ${e.dropSeconds} s after it` : '') +
      '; locally the last pass also comes just inside the bound, from an isolate that started after the drop' +
      ' and verified from the colo copy fetched before it. Both count the bound from the last fetch before the drop,' +
      ' not from the drop: a drop just after a fetch is the worst case, maxAgeMs.',
    '',
  );
  return out;
}
