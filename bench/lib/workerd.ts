// Benches inside workerd. Inside a Worker the clock does not advance during
// synchronous work (timers move on I/O), so timing happens out here in Node:
// the Worker runs a case n times per request, and per-op time is
// (time(2n) - time(n)) / n, which cancels the request's own overhead. Rounds
// interleave the cases, as in ./harness.ts.
// clock 'cpu' (Linux): time is the workerd process's CPU (every thread, ./proc-cpu.ts)
// rather than Node's wall clock, which on a shared machine also counts the time other
// processes held the CPU: a preemption of a few ms inside one of the two requests of a
// sample moved that sample by ms/n (negative ones were clamped to 0: the 0-ns rows).
//
// The entry module's default export is `async () => WorkerCase[]`; it is bundled
// with the package's `workerd` resolution (the .wasm imported as a compiled
// module, like a deployed Worker) and started with Miniflare. Miniflare (with
// its own workerd) comes from bench/package.json: the root's is the 5.x beta
// the Vitest plugin pins, whose API is still moving.
import { Miniflare } from 'miniflare';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, basename } from 'node:path';
import { packageVersion } from './env.ts';
import { bundleWorker } from './workerd-bundle.ts';
import { smoke, summarize, type Sample } from './harness.ts';
import { childPid, processCpuNs } from './proc-cpu.ts';
import { rustPeerDir } from '../peers/rust.ts';

export interface WorkerCase {
  name: string;
  fn: () => unknown;
  /** Await each call (WebCrypto). */
  async?: boolean;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

async function bundle(entry: string, withExports = false, withRust = false): Promise<string> {
  const outDir = join(root, 'build/bench-workers', basename(entry).replace(/\.ts$/, ''));
  mkdirSync(outDir, { recursive: true });
  const main = join(outDir, 'worker-main.ts');
  writeFileSync(
    main,
    `import setup from ${JSON.stringify(entry)};
${withExports ? `export * from ${JSON.stringify(entry)};\n` : ''}let cases;
export default {
  async fetch(request) {
    try {
      cases ??= await setup();
      const url = new URL(request.url);
      if (url.pathname === '/names') return Response.json(cases.map((c) => c.name));
      const c = cases[Number(url.searchParams.get('case'))];
      const n = Number(url.searchParams.get('n'));
      if (url.pathname === '/time') {
        // Timed in here: the clock moves on I/O, so n awaited round trips time themselves.
        const t0 = Date.now();
        for (let i = 0; i < n; i++) await c.fn();
        return new Response(String((Date.now() - t0) / n));
      }
      let last;
      if (c.async) for (let i = 0; i < n; i++) last = await c.fn();
      else for (let i = 0; i < n; i++) last = c.fn();
      return new Response(String(last));
    } catch (e) {
      return new Response(String((e && e.stack) || e), { status: 500 });
    }
  },
};
`,
  );
  // '#bench-rust-peer': the Rust wasm-bindgen peer when asked for and built, else a module with none.
  const rustDir = withRust ? rustPeerDir() : null;
  const rustModule = join(root, 'bench/peers', rustDir === null ? 'rust-workerd-none.js' : 'rust-workerd.js');
  // Smoke runs shrink the work inside the Worker too (harness.ts reads this).
  const define = smoke ? { 'globalThis.BENCH_SMOKE': 'true' } : undefined;
  const alias = { '#bench-rust-peer': rustModule };
  const { code } = await bundleWorker(main, join(outDir, 'worker.js'), { define, alias });
  const rustWasm = /from\s*"([^"]*rust_verify_bg\.wasm)"/.exec(code)?.[1];
  if (rustDir !== null && rustWasm !== undefined) {
    mkdirSync(join(outDir, rustWasm, '..'), { recursive: true });
    copyFileSync(join(rustDir, 'rust_verify_bg.wasm'), join(outDir, rustWasm));
  }
  return outDir;
}

/**
 * Miniflare running the bundle in `outDir` (its worker.js), with the .wasm imported as a
 * compiled module; `extra` adds options (Durable Object bindings).
 */
export function miniflareFor(
  outDir: string,
  extra: Partial<ConstructorParameters<typeof Miniflare>[0]> = {},
): Miniflare {
  return new Miniflare({
    modules: true,
    scriptPath: join(outDir, 'worker.js'),
    modulesRoot: outDir,
    modulesRules: [{ type: 'CompiledWasm', include: ['**/*.wasm'] }],
    compatibilityDate: '2026-04-01',
    ...extra,
  } as ConstructorParameters<typeof Miniflare>[0]);
}

export interface WorkerdBench {
  samples: Sample[];
  /** ns per operation in each round, by case name (for ratios paired by round). */
  perRound: Record<string, number[]>;
  workerdVersion: string;
  /** What was timed: the workerd process's CPU, or Node's wall clock. */
  clock: 'cpu' | 'wall';
}

/**
 * `insideN`: time each round inside the Worker over that many awaited calls (for cases that
 * are I/O round trips, where the Worker's clock moves), instead of from Node.
 * `durableObjects`: binding -> class name; the entry then also exports those classes
 * (the generated main re-exports the entry's named exports) and cases reach them
 * through `env` from `cloudflare:workers`.
 * `clock: 'cpu'`: time the workerd process's CPU (falls back to wall time where /proc is missing);
 * `only`: the case names to time (the others are set up but not run).
 * `rustPeer`: '#bench-rust-peer' in the entry gives the Rust wasm-bindgen peer (built first if it can be), not null.
 */
export async function benchInWorkerd(
  entry: string,
  opts: {
    rustPeer?: boolean;
    rounds?: number;
    requestMs?: number;
    warmupMs?: number;
    bestOf?: number;
    insideN?: number;
    clock?: 'cpu' | 'wall';
    only?: (name: string) => boolean;
    durableObjects?: Record<string, string | { className: string; useSQLite?: boolean }>;
  } = {},
): Promise<WorkerdBench> {
  const rounds = opts.rounds ?? (smoke ? 3 : 25);
  const requestMs = opts.requestMs ?? (smoke ? 5 : 40);
  const outDir = await bundle(entry, opts.durableObjects !== undefined, opts.rustPeer);
  const mf = miniflareFor(outDir, opts.durableObjects === undefined ? {} : { durableObjects: opts.durableObjects });
  try {
    const call = async (path: string): Promise<string> => {
      const response = await mf.dispatchFetch(`http://bench.local${path}`);
      const text = await response.text();
      if (response.status !== 200) throw new Error(`bench failed inside workerd:\n${text}`);
      return text;
    };
    await mf.ready;
    const pid = opts.clock === 'cpu' ? childPid('workerd') : undefined;
    const clock = pid === undefined ? 'wall' : 'cpu';
    const timed = async (c: number, n: number): Promise<number> => {
      if (pid !== undefined) {
        const c0 = processCpuNs(pid);
        await call(`/run?case=${c}&n=${n}`);
        return processCpuNs(pid) - c0;
      }
      const t0 = process.hrtime.bigint();
      await call(`/run?case=${c}&n=${n}`);
      return Number(process.hrtime.bigint() - t0);
    };
    const allNames = JSON.parse(await call('/names')) as string[];
    // Indices into the Worker's case list of the cases to time.
    const picked = allNames.map((_, i) => i).filter((i) => opts.only?.(allNames[i]!) ?? true);
    const names = picked.map((i) => allNames[i]!);
    if (opts.insideN !== undefined) {
      const n = smoke ? Math.min(5, opts.insideN) : opts.insideN;
      for (const c of picked) await call(`/time?case=${c}&n=${n}`);
      const inside: number[][] = names.map(() => []);
      for (let r = 0; r < rounds; r++)
        for (let c = 0; c < names.length; c++)
          inside[c]!.push(Number(await call(`/time?case=${picked[c]}&n=${n}`)) * 1e6);
      return {
        samples: names.map((name, i) => summarize(name, inside[i]!)),
        perRound: Object.fromEntries(names.map((name, i) => [name, inside[i]!])),
        workerdVersion: packageVersion('workerd'),
        clock: 'wall',
      };
    }
    // Warm up (JIT tiers, key imports), then calibrate n so one request runs
    // about `requestMs` of work.
    for (const c of picked) {
      const until = Date.now() + (opts.warmupMs ?? (smoke ? 100 : 500));
      while (Date.now() < until) await timed(c, 256);
    }
    const ns: number[] = [];
    for (const c of picked) {
      let n = 64;
      for (;;) {
        // The smaller of two readings: one preempted (or slowed) request must not stop the growth at a small n,
        // where the request's own overhead and its noise would swamp n calls.
        const t = Math.min(
          (await timed(c, 2 * n)) - (await timed(c, n)),
          (await timed(c, 2 * n)) - (await timed(c, n)),
        );
        // (CPU clock: a request of n calls then runs about requestMs; wall: the two of n and 2n do.)
        if (t >= requestMs * 1e6 * 0.5 || n >= 1 << 24) {
          ns.push(Math.max(1, Math.round((n * requestMs * 1e6) / Math.max(t, 1))));
          break;
        }
        n *= 4;
      }
    }
    const perOp: number[][] = names.map(() => []);
    for (let r = 0; r < rounds; r++) {
      // Rotated each round, so drift over the run hits every case alike.
      for (let k = 0; k < names.length; k++) {
        const c = (k + r) % names.length;
        const n = ns[c]!;
        // bestOf > 1: the fastest of k requests of each length (a busy machine only ever adds
        // time, by preempting; the fastest of a few is the one it left alone).
        // CPU clock: n calls against an empty request (n = 0), the fastest of k of each (default 3):
        // one long request carries all of the signal, where 2n − n doubled the noise of a busy machine
        // (preemption does not count as CPU, but a shared core's caches and a GC burst do, and only add).
        let short = Infinity;
        let long = Infinity;
        for (let j = 0; j < (opts.bestOf ?? (clock === 'cpu' ? 3 : 1)); j++) {
          short = Math.min(short, await timed(picked[c]!, clock === 'cpu' ? 0 : n));
          long = Math.min(long, await timed(picked[c]!, clock === 'cpu' ? n : 2 * n));
        }
        // Not clamped at 0: a negative sample is noise the median and the spread should see.
        perOp[c]!.push((long - short) / n);
      }
    }
    return {
      samples: names.map((name, i) => summarize(name, perOp[i]!)),
      perRound: Object.fromEntries(names.map((name, i) => [name, perOp[i]!])),
      workerdVersion: packageVersion('workerd'),
      clock,
    };
  } finally {
    await mf.dispose();
  }
}
