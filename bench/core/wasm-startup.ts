// Module size and start-up cost of edgejwt's Wasm core next to the Rust
// wasm-bindgen peer (ed25519-dalek + ed25519-compact + RustCrypto HS256): each
// measured in fresh Node processes (cold engine, as an isolate starts), median of
// RUNS. Run: npm run build && node bench/core/wasm-startup.ts   (BENCH_SMOKE=1: 3 runs)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { rustPeerDir } from '../peers/rust.ts';
import { smoke } from '../lib/harness.ts';
import { environment, printEnvironment, writeResults } from '../lib/env.ts';

const RUNS = smoke ? 3 : 15;
const corePath = fileURLToPath(new URL('../../src/wasm/generated/core.wasm', import.meta.url));

// Each child reads the bytes first, then times compile and instantiate separately.
const OURS = `
const bytes = require('node:fs').readFileSync(${JSON.stringify(corePath)});
const t0 = performance.now();
const mod = new WebAssembly.Module(bytes);
const t1 = performance.now();
new WebAssembly.Instance(mod, {});
const t2 = performance.now();
console.log(JSON.stringify({ compileMs: t1 - t0, instantiateMs: t2 - t1 }));`;

const rustChild = (dir: string): string => `
const { readFileSync } = require('node:fs');
import(${JSON.stringify(`${dir}/rust_verify.js`)}).then((glue) => {
  const bytes = readFileSync(${JSON.stringify(`${dir}/rust_verify_bg.wasm`)});
  const t0 = performance.now();
  const mod = new WebAssembly.Module(bytes);
  const t1 = performance.now();
  glue.initSync({ module: mod });
  const t2 = performance.now();
  console.log(JSON.stringify({ compileMs: t1 - t0, instantiateMs: t2 - t1 }));
});`;

interface Startup {
  compileMs: number;
  instantiateMs: number;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

function startup(script: string): Startup {
  const runs: Startup[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`start-up child failed:\n${r.stderr}`);
    runs.push(JSON.parse(r.stdout.trim().split('\n').pop()!) as Startup);
  }
  return { compileMs: median(runs.map((r) => r.compileMs)), instantiateMs: median(runs.map((r) => r.instantiateMs)) };
}

function sizes(path: string): { raw: number; gzip: number } {
  const bytes = readFileSync(path);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const env = environment();
printEnvironment(env);
const rows: Record<string, { raw: number; gzip: number } & Startup> = {
  'edgejwt core (HMAC-SHA-2 + Ed25519)': { ...sizes(corePath), ...startup(OURS) },
};
const rustDir = rustPeerDir();
if (rustDir !== null) {
  rows['Rust wasm-bindgen peer (dalek + compact + HS256)'] = {
    ...sizes(`${rustDir}/rust_verify_bg.wasm`),
    ...startup(rustChild(rustDir)),
  };
}
console.log(
  `\n| module | raw | gzip | compile (median of ${RUNS} fresh processes) | instantiate |\n|---|---:|---:|---:|---:|`,
);
for (const [name, r] of Object.entries(rows)) {
  console.log(
    `| ${name} | ${r.raw} B | ${r.gzip} B | ${r.compileMs.toFixed(2)} ms | ${r.instantiateMs.toFixed(2)} ms |`,
  );
}
console.log(`results: ${writeResults('wasm-startup', { env, runs: RUNS, rows })}`);
