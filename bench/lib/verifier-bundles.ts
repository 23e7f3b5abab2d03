// What `createVerifier` costs a user's Worker: the two entries in bench/verify/bundle/
// (HS256 alone, RS256 alone with a remote key set, HS256 with jweDecryption) bundled as Wrangler would (the
// `workerd` condition, minified, the .wasm left outside as its own module), with the
// bytes each room of src/ leaves in them. Printed by bench/verify/bundle-size.ts and
// on the last line of bench/guard/isolate.ts.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CORE_WASM, bundleWorker } from './workerd-bundle.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface VerifierBundle {
  name: string;
  /** Minified JS, bytes (the .wasm not counted). */
  bytes: number;
  gzipBytes: number;
  /** The core's .wasm beside it, when the bundle imports it. */
  wasmBytes: number;
  /** Bytes per room: src/jwe/, src/wasm/, src/keys/, ... (a file directly in src/ is its own room). */
  rooms: Record<string, number>;
}

export const VERIFIER_ENTRIES = { 'createVerifier HS256': 'hs256.ts', 'createVerifier RS256 (remote JWKS)': 'rs256.ts', 'createVerifier HS256 + jweDecryption': 'hs256-jwe.ts' } as const;

export async function verifierBundles(): Promise<VerifierBundle[]> {
  const out: VerifierBundle[] = [];
  for (const [name, file] of Object.entries(VERIFIER_ENTRIES)) {
    const b = await bundleWorker(join(root, 'bench/verify/bundle', file), join(root, 'build/bench-bundle', file.replace('.ts', '.js')), { minify: true });
    const rooms: Record<string, number> = {};
    for (const [path, n] of Object.entries(b.inputs)) {
      const m = /^src\/([^/]+\/|[^/]+$)/.exec(path);
      const room = m ? `src/${m[1]}` : 'other';
      rooms[room] = (rooms[room] ?? 0) + n;
    }
    out.push({ name, bytes: Buffer.byteLength(b.code), gzipBytes: gzipSync(b.code).length, wasmBytes: b.wasmImport === undefined ? 0 : statSync(CORE_WASM).size, rooms });
  }
  return out;
}

const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`;

/** One line: each bundle's minified size (and what JWE adds to it). */
export function verifierBundleLine(bundles: VerifierBundle[]): string {
  return `Verifier bundles (minified JS, workerd condition): ${bundles.map((b) => `${b.name} ${kib(b.bytes)}${b.rooms['src/jwe/'] ? ` (src/jwe/ ${kib(b.rooms['src/jwe/'])})` : ''}`).join(', ')}`;
}

/** A Markdown table: size, gzip, the .wasm, and the five largest rooms. */
export function verifierBundleTable(bundles: VerifierBundle[]): string {
  const lines = ['| bundle | minified JS | gzip | + .wasm module | largest rooms |', '|---|---:|---:|---:|---|'];
  for (const b of bundles) {
    const top = Object.entries(b.rooms).sort((x, y) => y[1] - x[1]).slice(0, 5).map(([r, n]) => `${r} ${kib(n)}`).join(', ');
    lines.push(`| ${b.name} | ${kib(b.bytes)} | ${kib(b.gzipBytes)} | ${b.wasmBytes === 0 ? '-' : kib(b.wasmBytes)} | ${top} |`);
  }
  return lines.join('\n');
}
