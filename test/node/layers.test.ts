// The import rules of docs/architecture.md ("Import rules"), read from the source:
// every runtime import in src/ goes from a layer to one at or below it. Type-only
// imports are free (they vanish at build time). A new file lands in a layer by its
// path; a file no layer claims fails here, so the table below stays the map.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'src');

/** Layers bottom-up; a file belongs to the first layer with a matching pattern. */
const LAYERS: [name: string, patterns: RegExp[]][] = [
  ['foundations', [/^errors\.ts$/, /^algorithms\.ts$/, /^b64\.ts$/, /^utf8\.ts$/, /^json-names\.ts$/, /^options-error\.ts$/, /^option-names\.ts$/, /^freeze\.ts$/, /^platform\//, /^keys\/rsa-params\.ts$/, /^keys\/ec-point\.ts$/]],
  ['boundary', [/^wasm\//]],
  ['backends', [/^backend\//]],
  ['token parts', [/^jws\.ts$/, /^header\.ts$/, /^payload\.ts$/, /^claims\.ts$/, /^cache\.ts$/, /^decode\.ts$/, /^digest\.ts$/]],
  ['signature step', [/^signature\.ts$/]],
  ['keys', [/^keys\//, /^sign\//, /^jwe\//]],
  ['policy', [/^options\.ts$/]],
  ['verifier', [/^verify-path\.ts$/, /^verifier\.ts$/, /^dpop\//]],
  ['public API', [/^index\.ts$/]],
  ['adapters', [/^bearer\//, /^hono\//, /^worker\//]],
  ['tools', [/^cli\//]],
];

/** What a layer may import besides everything below it. */
const ALSO: Record<string, RegExp[]> = {
  // The token parts may hash through the core (digest.ts).
  'token parts': [/^wasm\//],
};

/** Imports that break a rule today, each with the reason it is tolerated. */
const EXCEPTIONS: [from: RegExp, to: RegExp, why: string][] = [];

/** Files that no rule may import, whatever their layer. */
const NEVER: [from: RegExp, to: RegExp, why: string][] = [
  [/^(bearer|hono|worker)\//, /^backend\//, 'adapters verify through createVerifier, never a backend'],
  [/^hono\//, /^worker\//, 'the Hono middleware does not depend on the guard'],
  [/^bearer\//, /^(hono|worker|cli)\//, 'the bearer module is shared by the guard and the middleware, below both'],
  [/^(bearer|hono|worker)\//, /^cli\//, 'the command-line tool uses the guard, never the other way'],
  [/^(verifier|verify-path)\.ts$/, /^backend\//, 'the verifier calls handle.verify, never a backend'],
  [/^verify-path\.ts$/, /^jwe\//, 'JWE reaches the verify path only through the hook createVerifier passes (a guard bundle without src/jwe/)'],
  [/^worker\//, /^(jwe\/|verifier\.ts$)/, 'the guard never decrypts: it builds its verifier through verify-path.ts without src/jwe/'],
];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'generated' ? [] : files(join(dir, e.name))) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

function layerOf(file: string): number {
  return LAYERS.findIndex(([, patterns]) => patterns.some((p) => p.test(file)));
}

/** The package's runtime-selected imports (package.json "imports"), as the directory each resolves into. */
const HASH_IMPORTS: Record<string, string> = { '#crypto-backend': 'backend/index.ts', '#core-loader': 'wasm/load.ts', '#platform': 'platform/index.ts' };

/** Runtime imports of `file` (relative to src/), as paths relative to src/. */
function runtimeImports(file: string): string[] {
  const text = readFileSync(join(src, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?[^'";]*?from\s+'([.#][^']+)'/gm)) {
    if (m[1] !== undefined) continue;
    const spec = m[2]!;
    if (spec.startsWith('#')) out.push(HASH_IMPORTS[spec] ?? spec);
    else out.push(relative(src, join(src, dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  return out;
}

function excepted(file: string, target: string): boolean {
  return EXCEPTIONS.some(([a, b]) => a.test(file) && b.test(target));
}

const all = files(src).map((f) => relative(src, f).replaceAll('\\', '/'));

describe('import rules (docs/architecture.md)', () => {
  it('every source file belongs to a layer', () => {
    expect(all.filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('every runtime import goes to the same layer or one below', () => {
    const broken: string[] = [];
    for (const file of all) {
      const from = layerOf(file);
      for (const target of runtimeImports(file)) {
        const to = layerOf(target);
        if (to <= from) continue;
        if ((ALSO[LAYERS[from]![0]] ?? []).some((p) => p.test(target))) continue;
        if (excepted(file, target)) continue;
        broken.push(`${file} (${LAYERS[from]![0]}) imports ${target} (${LAYERS[to]?.[0] ?? 'no layer'})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no file makes an import the rules forbid outright', () => {
    const broken: string[] = [];
    for (const file of all) {
      for (const target of runtimeImports(file)) {
        if (excepted(file, target)) continue;
        for (const [a, b, why] of NEVER) if (a.test(file) && b.test(target)) broken.push(`${file} imports ${target}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('src/ never imports assembly/ (the core is reached through #core-loader)', () => {
    const broken = all.filter((f) => /from\s+'[^']*assembly\//.test(readFileSync(join(src, f), 'utf8')));
    expect(broken).toEqual([]);
  });

  it('sees the imports it checks (the parser is not blind)', () => {
    expect(runtimeImports('verify-path.ts')).toContain('jws.ts');
    expect(runtimeImports('verifier.ts')).toContain('jwe/decrypt.ts');
    expect(runtimeImports('keys/entry.ts')).toContain('signature.ts');
    expect(runtimeImports('signature.ts')).toContain('backend/index.ts'); // #crypto-backend
    // A type-only import is not a runtime edge.
    expect(runtimeImports('signature.ts')).not.toContain('backend/types.ts');
  });
});
