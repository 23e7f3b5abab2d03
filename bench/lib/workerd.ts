// Benches inside workerd. Inside a Worker the clock does not advance during
// synchronous work (timers move on I/O), so timing happens out here in Node:
// the Worker runs a case n times per request, and per-op time is
// (time(2n) - time(n)) / n, which cancels the request's own overhead. Rounds
// interleave the cases, as in ./harness.ts.
//
// The entry module's default export is `async () => WorkerCase[]`; it is bundled
// with the package's `workerd` resolution (the .wasm imported as a compiled
// module, like a deployed Worker) and started with Miniflare. Miniflare (with
// its own workerd) comes from bench/package.json: the root's is the 5.x beta
// the Vitest plugin pins, whose API is still moving.
import { Miniflare } from 'miniflare';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, basename } from 'node:path';
import { packageVersion } from './env.ts';
import { bundleWorker } from './workerd-bundle.ts';
import { smoke, summarize, type Sample } from './harness.ts';

export interface WorkerCase {
  name: string;
  fn: () => unknown;
  /** Await each call (WebCrypto). */
  async?: boolean;
}

const root = fileURLToPath(new URL('../..', import.meta.url));

async function bundle(entry: string, withExports = false): Promise<string> {
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
  // Smoke runs shrink the work inside the Worker too (harness.ts reads this).
  await bundleWorker(main, join(outDir, 'worker.js'), smoke ? { define: { 'globalThis.BENCH_SMOKE': 'true' } } : {});
  return outDir;
}

/**
 * Miniflare running the bundle in `outDir` (its worker.js), with the .wasm imported as a
 * compiled module; `extra` adds options (Durable Object bindings).
 */
export function miniflareFor(outDir: string, extra: Partial<ConstructorParameters<typeof Miniflare>[0]> = {}): Miniflare {
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
}

/**
 * `insideN`: time each round inside the Worker over that many awaited calls (for cases that
 * are I/O round trips, where the Worker's clock moves), instead of from Node.
 * `durableObjects`: binding -> class name; the entry then also exports those classes
 * (the generated main re-exports the entry's named exports) and cases reach them
 * through `env` from `cloudflare:workers`.
 */
export async function benchInWorkerd(entry: string, opts: { rounds?: number; requestMs?: number; warmupMs?: number; bestOf?: number; insideN?: number; durableObjects?: Record<string, string | { className: string; useSQLite?: boolean }> } = {}): Promise<WorkerdBench> {
  const rounds = opts.rounds ?? (smoke ? 3 : 25);
  const requestMs = opts.requestMs ?? (smoke ? 5 : 40);
  const outDir = await bundle(entry, opts.durableObjects !== undefined);
  const mf = miniflareFor(outDir, opts.durableObjects === undefined ? {} : { durableObjects: opts.durableObjects });
  try {
    const call = async (path: string): Promise<string> => {
      const response = await mf.dispatchFetch(`http://bench.local${path}`);
      const text = await response.text();
      if (response.status !== 200) throw new Error(`bench failed inside workerd:\n${text}`);
      return text;
    };
    const timed = async (c: number, n: number): Promise<number> => {
      const t0 = process.hrtime.bigint();
      await call(`/run?case=${c}&n=${n}`);
      return Number(process.hrtime.bigint() - t0);
    };
    const names = JSON.parse(await call('/names')) as string[];
    if (opts.insideN !== undefined) {
      const n = smoke ? Math.min(5, opts.insideN) : opts.insideN;
      for (let c = 0; c < names.length; c++) await call(`/time?case=${c}&n=${n}`);
      const inside: number[][] = names.map(() => []);
      for (let r = 0; r < rounds; r++) for (let c = 0; c < names.length; c++) inside[c]!.push(Number(await call(`/time?case=${c}&n=${n}`)) * 1e6);
      return { samples: names.map((name, i) => summarize(name, inside[i]!)), perRound: Object.fromEntries(names.map((name, i) => [name, inside[i]!])), workerdVersion: packageVersion('workerd') };
    }
    // Warm up (JIT tiers, key imports), then calibrate n so one request runs
    // about `requestMs` of work.
    for (let c = 0; c < names.length; c++) {
      const until = Date.now() + (opts.warmupMs ?? (smoke ? 100 : 500));
      while (Date.now() < until) await timed(c, 256);
    }
    const ns: number[] = [];
    for (let c = 0; c < names.length; c++) {
      let n = 64;
      for (;;) {
        const t = (await timed(c, 2 * n)) - (await timed(c, n));
        if (t >= requestMs * 1e6 * 0.5 || n >= 1 << 24) {
          ns.push(Math.max(1, Math.round((n * requestMs * 1e6) / Math.max(t, 1))));
          break;
        }
        n *= 4;
      }
    }
    const perOp: number[][] = names.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let c = 0; c < names.length; c++) {
        const n = ns[c]!;
        // bestOf > 1: the fastest of k requests of each length (a busy machine only ever adds
        // time, by preempting; the fastest of a few is the one it left alone).
        let single = Infinity;
        let double = Infinity;
        for (let k = 0; k < (opts.bestOf ?? 1); k++) {
          single = Math.min(single, await timed(c, n));
          double = Math.min(double, await timed(c, 2 * n));
        }
        perOp[c]!.push(Math.max(0, double - single) / n);
      }
    }
    return { samples: names.map((name, i) => summarize(name, perOp[i]!)), perRound: Object.fromEntries(names.map((name, i) => [name, perOp[i]!])), workerdVersion: packageVersion('workerd') };
  } finally {
    await mf.dispose();
  }
}
