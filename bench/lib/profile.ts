// Attributes the samples of a V8 CPU profile (DevTools protocol format) of a
// Worker's first request to phases, by the frames on each sample's stack:
// the innermost frame naming a phase wins (a key import inside the verifier
// setup is a key import); otherwise the outermost context (guard setup, first
// verify, the rest of the request). Frames map to source files through the
// line ranges of an unminified bundle.

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
export interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export const PHASES = [
  'bundle evaluation',
  'first console.log',
  'config parsing',
  'CACHE_KEY import',
  'Wasm instantiate',
  'key parse + import',
  'KV + unsealing',
  'guard setup, other',
  'self-test',
  'first verify',
  'request path, other',
  'V8 (compile, GC, runtime)',
  'total',
  'of which in Wasm code',
  'after the response',
  'sampler gaps',
] as const;
export type Phase = (typeof PHASES)[number];

/** Where each source file starts in the bundle, and the lines that call console.log. */
export interface Ranges {
  files: { from: number; file: string }[];
  logLines: Set<number>;
}

/** Line ranges of each source file in an unminified esbuild bundle (its `// path` markers). */
export function sourceRanges(code: string): Ranges {
  const files: { from: number; file: string }[] = [];
  const logLines = new Set<number>();
  code.split('\n').forEach((line, i) => {
    // `// src/…` (or `// build/before/src/…` for another checkout): keep the path from src/ on.
    const m = /^\/\/ (?:\S*\/)?((?:src|node_modules)\/\S+\.[cm]?[tj]s)$/.exec(line);
    if (m) files.push({ from: i, file: m[1]! });
    if (line.includes('console.log(')) logLines.add(i);
  });
  return { files, logLines };
}

function fileOf(frame: CallFrame, ranges: Ranges): string {
  if (!frame.url.endsWith('worker.js')) return frame.url;
  let file = 'worker.js';
  for (const r of ranges.files) if (r.from <= frame.lineNumber) file = r.file;
  return file;
}

/** The phase a frame names on its own, if any. */
function specific(frame: CallFrame, file: string, ranges: Ranges): Phase | undefined {
  const fn = frame.functionName;
  if (frame.url.startsWith('node-internal:') || fn === 'formatLog') return 'first console.log';
  if (frame.url.endsWith('worker.js') && ranges.logLines.has(frame.lineNumber)) return 'first console.log';
  if (
    (frame.url.endsWith('worker.js') || frame.url.endsWith('entry.js')) &&
    frame.lineNumber === 0 &&
    frame.columnNumber === 0
  )
    return 'bundle evaluation';
  if (file === 'src/worker/config.ts') return 'config parsing';
  if (file === 'src/worker/seal.ts') return fn === 'open' || fn === 'unseal' ? 'KV + unsealing' : 'CACHE_KEY import';
  if (file === 'src/worker/jwks-store.ts' || (file === 'src/worker/verify-cache.ts' && fn === 'get'))
    return 'KV + unsealing';
  if (
    file === 'src/wasm/instance.ts' ||
    file === 'src/wasm/load-workerd.ts' ||
    (file === 'src/wasm/core.ts' && fn === 'Core')
  )
    return 'Wasm instantiate';
  if (
    file === 'src/keys/entry.ts' ||
    file === 'src/keys/local.ts' ||
    file === 'src/keys/source.ts' ||
    file === 'src/keys/single.ts' ||
    file === 'src/wasm/keys.ts' ||
    fn === 'importKey'
  )
    return 'key parse + import';
  return undefined;
}

/**
 * Microseconds per phase ('(idle)' samples are left out). A sample is charged the
 * time since the previous one, at most `capUs`; longer gaps (the sampler starting,
 * the thread descheduled on a busy machine) go to 'sampler gaps', outside the total.
 */
export function attribute(profile: CpuProfile, ranges: Ranges, capUs = 250): Record<Phase, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;
  const memo = new Map<number, { phase: Phase; wasm: boolean } | null>();
  const classify = (leaf: number) => {
    if (memo.has(leaf)) return memo.get(leaf)!;
    const stack: CallFrame[] = [];
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) stack.push(byId.get(id)!.callFrame);
    const top = stack[0]!;
    let r: { phase: Phase; wasm: boolean } | null;
    if (top.functionName === '(idle)') r = null;
    else if (top.functionName === '(program)' || top.functionName === '(garbage collector)')
      r = { phase: 'V8 (compile, GC, runtime)', wasm: false };
    else {
      const wasm = top.url.startsWith('wasm://');
      let phase: Phase | undefined;
      for (const f of stack) if ((phase = specific(f, fileOf(f, ranges), ranges)) !== undefined) break;
      const names = stack.map((f) => `${fileOf(f, ranges)}#${f.functionName}`);
      // The guard's deferred log lines run in this callback after the response.
      if (names.includes('src/worker/embed.ts#writeDeferredLog')) phase = 'after the response';
      // The guard Worker's known-answer verify at module scope (src/worker/self-test.ts), key import included.
      else if (names.some((n) => n.startsWith('src/worker/self-test.ts#'))) phase = 'self-test';
      if (phase === undefined) {
        if (
          names.some(
            (n) =>
              n.startsWith('src/worker/build.ts#') ||
              n === 'src/worker/start.ts#startGuard' ||
              n === 'src/worker/guard.ts#Guard' ||
              n === 'src/worker/runner.ts#Guard',
          )
        )
          phase = 'guard setup, other';
        // The verify stage (src/worker/stages/verify/verify-tiers.ts since the guard became a chain of stages).
        else if (
          names.some(
            (n) =>
              n === 'src/worker/guard.ts#verify' ||
              n === 'src/worker/runner.ts#verify' ||
              n === 'src/worker/stages/verify/verify-tiers.ts#verify',
          )
        )
          phase = 'first verify';
        else phase = 'request path, other';
      }
      r = { phase, wasm };
    }
    memo.set(leaf, r);
    return r;
  };
  profile.samples.forEach((id, i) => {
    // timeDeltas[i] is the time before sample i; charge it to that sample.
    const c = classify(id);
    if (c === null) return;
    const delta = profile.timeDeltas[i] ?? 0;
    const us = Math.min(delta, capUs);
    out['sampler gaps'] += delta - us;
    out[c.phase] += us;
    if (c.phase !== 'after the response') out.total += us;
    if (c.wasm) out['of which in Wasm code'] += us;
  });
  return out;
}
