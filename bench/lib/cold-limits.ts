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
const recovered = (r: { freshS?: number; freshFirstRequest?: number }) =>
  r.freshS === undefined
    ? 'a fresh isolate started then never verified'
    : r.freshS === r.freshFirstRequest
      ? `a fresh isolate started then verified at its first request, ${s(r.freshS)} after`
      : `a fresh isolate's first request came ${s(r.freshFirstRequest)} after, its first pass ${s(r.freshS)} after`;
const s = (v: number | undefined) => (v === undefined ? '—' : `${v.toFixed(2)} s`);

// The outage inside the stale window: passes, fetches against the cooldown's allowance, who waited the deadline.
function outageAgrees(o: NonNullable<ColdLimits['outagePastStale']>): string {
  const { settings: c, times: t } = o;
  const inside = o.inside.filter((r) => r.at < t.end);
  const ok = inside.filter((r) => r.status === 200).length + (o.warm.stale?.statuses['200'] ?? 0);
  const all = inside.length + (o.warm.stale?.n ?? 0);
  const allowed = Math.ceil((t.up - t.down) / (c.cooldownMs / 1000));
  return (
    `${ok} of ${all} requests passed, ${o.fetchesDown} provider fetches in ${(t.up - t.down).toFixed(0)} s (the` +
    ` ${c.cooldownMs / 1000} s cooldown allows ${allowed}), and the waits near the ${c.timeoutMs / 1000} s deadline` +
    ` were the claimant's (the warm isolate's slowest ${(o.warm.stale?.maxMs ?? 0).toFixed(0)} ms; the fresh` +
    ` isolates' at most ${Math.max(...inside.map((r) => r.ms)).toFixed(0)} ms)`
  );
}

// Every status past the window, warm and fresh together.
function pastStatuses(o: NonNullable<ColdLimits['outagePastStale']>): string {
  const all: Record<string, number> = { ...(o.warm.past?.statuses ?? {}) };
  for (const r of o.past.filter((p) => p.at >= o.times.end)) all[r.status] = (all[r.status] ?? 0) + 1;
  return statuses(all);
}

// Which isolate gave the removal's worst case, and how it stands against the bound.
function worstText(r: NonNullable<ColdLimits['keyRemoval']>): string {
  const w = r.isolates.find((i) => i.lastPass === r.worstLastPass);
  const who =
    w === undefined
      ? 'from no isolate'
      : w.kind === 'warm'
        ? 'from the warm isolate (its set in memory)'
        : `from ${w.kind}, whose first request came after the drop and found the tier copy fetched before it`;
  const gap = r.bound - r.worstLastPass;
  return `${s(r.worstLastPass)} after the drop, ${gap >= 0 ? `${gap.toFixed(2)} s inside` : 'past'} the bound, ${who}`;
}

/**
 * The paragraphs, joined into lines for docs/speed.md.
 *
 * @example
 * lines.push(...coldLimitsLines(read('cold-local-limits'), fleetLimits, envLine));
 */
export function coldLimitsLines(x: ColdLimits, m: FleetLimits, envLine: (e: Record<string, string>) => string) {
  const out: string[] = [
    '**Past the stale window, and a dropped key, in real `wrangler dev` isolates**' +
      ' (`BENCH_ROUNDS=0 BENCH_SPRAY_S=0' +
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
    const against = (ms: number) => (ms <= c.timeoutMs ? 'within it' : `${(ms - c.timeoutMs).toFixed(0)} ms over it`);
    const freshMax = Math.max(...inside.map((r) => r.ms));
    const warmMax = o.warm.stale?.maxMs ?? 0;
    const list = (rs: Fresh[]) =>
      rs
        .map(
          (r) =>
            `at ${r.at.toFixed(1)} s ${r.status} in ${r.ms.toFixed(0)} ms (provider fetches meanwhile: ${r.fetches})`,
        )
        .join('; ');
    const pastFresh = o.past.filter((r) => r.at >= t.end);
    out.push(
      `Outage past \`jwks.staleMs\` (maxAgeMs ${c.maxAgeMs}, staleMs ${c.staleMs}, timeoutMs ${c.timeoutMs},` +
        ` cooldownMs ${c.cooldownMs}; the provider hangs, answering nothing, from ${t.down.toFixed(1)} s to` +
        ` ${t.up.toFixed(1)} s): the set the warm isolate filled the tiers with was sent at 0 s, so it is stale from` +
        ` ${t.staleAt} s and may not be used from ${t.end} s.` +
        ` Fresh isolates inside the stale window: ${list(inside)}.` +
        ` Their longest wait ${freshMax.toFixed(0)} ms against jwks.timeoutMs ${c.timeoutMs} ms:` +
        ` ${against(freshMax)}` +
        (freshMax > c.timeoutMs
          ? ` (a fresh isolate's first request costs ${Math.min(...inside.map((r) => r.ms)).toFixed(0)} ms or more` +
            ' with no wait at all, outside the key-set lookup)'
          : '') +
        '.' +
        ` Warm, stale window: ${statuses(o.warm.stale?.statuses ?? {})}, slowest ${warmMax.toFixed(0)} ms,` +
        ` ${against(warmMax)} (once per cooldown it is the isolate that claims the fetch; the tier read, the claim` +
        ' and the fetch share the one deadline' +
        (warmMax <= c.timeoutMs
          ? ''
          : ", so what is over it is the request's own path outside the key-set lookup and the local proxy's floor") +
        ').' +
        ` Past the window: fresh isolates ${list(pastFresh)}; warm ${statuses(o.warm.past?.statuses ?? {})}` +
        ` (slowest ${(o.warm.past?.maxMs ?? 0).toFixed(0)} ms);` +
        ` **${o.passesPast} passes in ${o.requestsPast} requests**.` +
        ` ${o.fetchesDown} provider fetches in the ${(t.up - t.down).toFixed(0)} s of the outage, each hung (the` +
        ` ${c.cooldownMs / 1000} s cooldown allows ${Math.ceil((t.up - t.down) / (c.cooldownMs / 1000))} per data` +
        ` centre). Provider back: the warm isolate verifies again ${s(o.recovery.warmS)} later (its probes from` +
        ` then on: ${statuses(o.warm.back?.statuses ?? {})}; a failure is not retried within the cooldown);` +
        ` ${recovered(o.recovery)}.`,
      '',
    );
  }
  const r = x.keyRemoval;
  if (r) {
    out.push(
      `Key removal (maxAgeMs ${r.maxAgeMs}; the provider serves k1 and k2, then drops k1 ${r.dropAfterFetchMs} ms` +
        ` after the fetch that filled the tiers, so that set stays in use; fresh isolates launched every 2 s from the` +
        ' fill, each sent its first request no sooner than the drop; every isolate probed with one k1 token every' +
        ' 500 ms until it refuses it). Seconds after the drop;' +
        ` the bound is the last fetch before the drop plus maxAgeMs: **${r.bound.toFixed(2)} s**.`,
      '',
      '| isolate | launched | first request | last pass | refused (status) |',
      '|---|---:|---:|---:|---|',
      ...r.isolates.map(
        (i) =>
          `| ${i.kind} | ${i.started === undefined ? 'before' : s(i.started)} |` +
          ` ${i.firstRequest === undefined ? 'before' : s(i.firstRequest)} | ${s(i.lastPass)} |` +
          ` ${s(i.refused)} (${i.refusedWith ?? '—'}) |`,
      ),
      '',
      `Worst case: the last pass ${s(r.worstLastPass)} after the drop, against the bound ${s(r.bound)}` +
        ` (${r.worstLastPass <= r.bound ? 'within it' : 'past it'}); ${r.passesPastBound} passes after the bound;` +
        ` every isolate refused k1 ${r.allRefused ? 'by the end' : '— not all did'}` +
        ` (the last at ${s(r.worstRefused)},` +
        ` an isolate that only started then), and k2 still verified (${r.k2AfterStatus}).`,
      '',
    );
  }
  const e = m.edgejwt;
  out.push(
    '**Model and local run, for these two.** Outage: the model (bench/guard/fleet.ts) takes a provider that hangs' +
      ` for ${(m.outage[1] - m.outage[0]) / 60_000} minutes inside the library's default staleDuration of 1 h (it` +
      ' assumed the default: the guard had no setting then), so it never reaches the limit: every request passes' +
      (e
        ? ` (${e.outagePassPct}%), the claimant's first request waits out the ${m.timeoutMs / 1000} s deadline (p99` +
          ` ${e.outageFirstP99} ms), ${e.outageFetchesPerMin} provider fetches a minute across ${m.dcs} data centres` +
          ` (its ${m.cooldownMs / 1000} s cooldown allows ${(m.dcs * 60_000) / m.cooldownMs})`
        : '') +
      (o ? `. The local run agrees inside the window: ${outageAgrees(o)}` : '') +
      '; what the model leaves out is measured here alone:' +
      (o
        ? ` past the window ${o.passesPast} passes in ${o.requestsPast} requests (${pastStatuses(o)}).`
        : ' not run.') +
      ' Removal: the model drops k1' +
      ` ${(m.dropAt - m.rotateAt) / 1000} s after the rotation made every data centre fetch, with maxAge` +
      ` ${m.maxAgeMs / 1000} s, so its bound is ${(m.rotateAt + m.maxAgeMs - m.dropAt) / 1000} s after the drop` +
      (e ? ` and its last pass ${e.dropSeconds} s after it` : '') +
      (r ? `; locally the last pass comes ${worstText(r)}` : '') +
      '. Both count the bound from the last fetch before the drop, not from the drop: a drop just after a fetch is' +
      ' the worst case, maxAgeMs; a cached verdict (L1) does not outlive it.',
    '',
  );
  return out;
}
