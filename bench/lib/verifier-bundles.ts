// What `createVerifier` costs a user's Worker, and what the guard's Worker entry uploads:
// the entries in bench/verify/bundle/ bundled as Wrangler would (the `workerd` condition
// and esbuild's defaults, minified, the .wasm left outside as its own module), with the
// bytes each source file and each room of src/ leaves in them. Printed by
// bench/verify/bundle-size.ts and on the last line of bench/guard/isolate.ts.
import { build } from 'esbuild';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CORE_WASM, bundleWorker, workerBuildOptions } from './workerd-bundle.ts';
import { configGuardBundle, ONE_ISSUER_HS256 } from './config-guard-entry.ts';

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
  /** Bytes per source file (repository-relative paths). */
  files: Record<string, number>;
  /** The size target for this bundle, bytes (minified JS), where an issue set one. */
  target?: number;
}

const KIB = 1024;

/**
 * Entry file, and the size target where an issue set one. The hmac entry here includes its call site (a key and a
 * verify), about 0.3 KiB more than the bare entry that size-limit budgets (.size-limit.mjs: edgejwt/hmac ≤ 25 KiB).
 */
export const VERIFIER_ENTRIES: Record<string, { file: string; target?: number }> = {
  'edgejwt/hmac createVerifier HS256': { file: 'hmac-hs256.ts', target: 25 * KIB },
  'createVerifier HS256': { file: 'hs256.ts' },
  'createVerifier EdDSA (JWK)': { file: 'eddsa.ts' },
  'createVerifier RS256 (JWK)': { file: 'rs256-key.ts' },
  'createVerifier ES256 (JWK)': { file: 'es256.ts' },
  'createVerifier RS256 (remote JWKS)': { file: 'rs256.ts' },
  'createVerifier HS256 + jweDecryption': { file: 'hs256-jwe.ts' },
  'guard Worker entry (src/worker/index.ts)': { file: 'guard.ts' },
};

export async function verifierBundles(): Promise<VerifierBundle[]> {
  const out: VerifierBundle[] = [];
  for (const [name, { file, target }] of Object.entries(VERIFIER_ENTRIES)) {
    const b = await bundleWorker(
      join(root, 'bench/verify/bundle', file),
      join(root, 'build/bench-bundle', file.replace('.ts', '.js')),
      { minify: true },
    );
    const bytes = Buffer.byteLength(b.code);
    out.push({
      name,
      bytes,
      gzipBytes: gzipSync(b.code).length,
      wasmBytes: b.wasmImport === undefined ? 0 : statSync(CORE_WASM).size,
      rooms: rooms(b.inputs),
      files: b.inputs,
      ...(target === undefined ? {} : { target }),
    });
  }
  out.push(await guardFirstChunk());
  // createGuard given the one-issuer HS256 config inline and only its stages (none beyond the core ones).
  const c = await configGuardBundle(
    join(root, 'build/bench-bundle/guard-one-issuer'),
    ONE_ISSUER_HS256,
    undefined,
    { minify: true },
    [],
  );
  out.push({
    name: 'guard createGuard(config, { stages: [] }), one-issuer HS256',
    bytes: Buffer.byteLength(c.code),
    gzipBytes: gzipSync(c.code).length,
    wasmBytes: c.wasmImport === undefined ? 0 : statSync(CORE_WASM).size,
    rooms: rooms(c.inputs),
    files: c.inputs,
    target: 49.8 * KIB,
  });
  return out;
}

/**
 * The guard entry split at its dynamic imports (what an isolate evaluates before the
 * config asks for a lazy feature): the entry chunk and the chunks it imports statically.
 */
async function guardFirstChunk(): Promise<VerifierBundle> {
  const outdir = join(root, 'build/bench-bundle/guard-split');
  const r = await build({
    ...workerBuildOptions(),
    entryPoints: [join(root, 'bench/verify/bundle/guard.ts')],
    outdir,
    splitting: true,
    minify: true,
    metafile: true,
    write: true,
  });
  const outputs = r.metafile.outputs;
  // The bench entry's own chunk: each feature reached by a dynamic import has an entryPoint too.
  const first = Object.keys(outputs).find(
    (k) => outputs[k]!.entryPoint?.endsWith('bench/verify/bundle/guard.ts') === true && k.endsWith('.js'),
  )!;
  const seen = new Set<string>();
  const visit = (k: string): void => {
    if (seen.has(k)) return;
    seen.add(k);
    for (const i of outputs[k]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(first);
  const files: Record<string, number> = {};
  let code = '';
  for (const k of seen) {
    code += readFileSync(resolve(k), 'utf8');
    for (const [f, { bytesInOutput }] of Object.entries(outputs[k]!.inputs))
      if (bytesInOutput > 0)
        files[relative(root, resolve(f))] = (files[relative(root, resolve(f))] ?? 0) + bytesInOutput;
  }
  return {
    name: 'guard Worker entry, split: loaded before any lazy import',
    bytes: Buffer.byteLength(code),
    gzipBytes: gzipSync(code).length,
    wasmBytes: 0,
    rooms: rooms(files),
    files,
  };
}

function rooms(files: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [path, n] of Object.entries(files)) {
    const m = /^src\/([^/]+\/|[^/]+$)/.exec(path);
    const room = m ? `src/${m[1]}` : 'other';
    out[room] = (out[room] ?? 0) + n;
  }
  return out;
}

const kib = (n: number): string => `${(n / KIB).toFixed(1)} KiB`;

/** One line: each bundle's minified size against its target (and what JWE adds to it). */
export function verifierBundleLine(bundles: VerifierBundle[]): string {
  const one = (b: VerifierBundle): string =>
    `${b.name} ${kib(b.bytes)}` +
    (b.target === undefined
      ? ''
      : ` (target ≤ ${kib(b.target)}: ${b.bytes <= b.target ? 'met' : 'NOT met'}, ${b.bytes} B)`) +
    (b.rooms['src/jwe/'] ? ` (src/jwe/ ${kib(b.rooms['src/jwe/'])})` : '');
  return `Bundles (minified JS, workerd condition): ${bundles.map(one).join(', ')}`;
}

/** A Markdown table: size, gzip, the .wasm, the target, and the five largest rooms. */
export function verifierBundleTable(bundles: VerifierBundle[]): string {
  const lines = [
    '| bundle | minified JS | gzip | + .wasm module | target | largest rooms |',
    '|---|---:|---:|---:|---:|---|',
  ];
  for (const b of bundles) {
    const top = Object.entries(b.rooms)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 5)
      .map(([r, n]) => `${r} ${kib(n)}`)
      .join(', ');
    const target = b.target === undefined ? '-' : `≤ ${kib(b.target)} ${b.bytes <= b.target ? 'met' : 'NOT met'}`;
    lines.push(
      `| ${b.name} | ${kib(b.bytes)} | ${kib(b.gzipBytes)} | ${b.wasmBytes === 0 ? '-' : kib(b.wasmBytes)} | ` +
        `${target} | ${top} |`,
    );
  }
  return lines.join('\n');
}

/** A Markdown table per bundle: the source files that fill it, largest first (`limit` rows). */
export function verifierFileTable(b: VerifierBundle, limit = 20): string {
  const rows = Object.entries(b.files).sort((x, y) => y[1] - x[1]);
  const lines = [`| ${b.name}: file | minified bytes |`, '|---|---:|'];
  for (const [f, n] of rows.slice(0, limit)) lines.push(`| ${f} | ${n} |`);
  const rest = rows.slice(limit).reduce((s, [, n]) => s + n, 0);
  if (rest > 0) lines.push(`| ${rows.length - limit} more files | ${rest} |`);
  return lines.join('\n');
}
