// The JSR package (jsr.json, TypeScript source) against the npm one: the same
// version and the same subpath exports, each pointing at the source file the
// npm build compiles to that export's dist/ file; then `deno publish --dry-run`,
// which type-checks the graph, rejects "slow types" and lists the files it
// would publish (it needs the npm registry for hono's types, not JSR); then
// the published source graph verifies a token in Deno. Run after
// `npm run build:wasm` (the source imports the generated core bytes).
// Last line: `[jsr] passed=N failed=N`.
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from './lib/checks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const jsr = JSON.parse(readFileSync(join(root, 'jsr.json'), 'utf8'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const deno = join(root, 'node_modules/deno/bin.cjs');
const { check, counts } = checks();

/** Deno (the devDependency) run by this Node; its stdout and stderr together, or a throw with both. */
function runDeno(args) {
  const r = spawnSync(process.execPath, [deno, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(out.trim() || `deno exited ${r.status ?? r.signal}`);
  return out;
}

check('jsr.json has the version of package.json', () => {
  if (jsr.version !== pkg.version) throw new Error(`jsr.json ${jsr.version}, package.json ${pkg.version}`);
  return jsr.version;
});

check('jsr.json exports the same subpaths, each from the source of the npm export', () => {
  // Data files (the guard config JSON Schema) are npm subpaths but no modules:
  // JSR exports only modules, and publishes the schema as a file (publish.include).
  const npmPaths = Object.keys(pkg.exports)
    .filter((k) => k !== './package.json' && !k.endsWith('.json'))
    .sort();
  const jsrPaths = Object.keys(jsr.exports).sort();
  if (npmPaths.join() !== jsrPaths.join()) throw new Error(`npm: ${npmPaths.join(', ')}; jsr: ${jsrPaths.join(', ')}`);
  for (const sub of npmPaths) {
    const built = typeof pkg.exports[sub] === 'string' ? pkg.exports[sub] : pkg.exports[sub].default;
    const fromSource = built.replace(/^\.\/dist\//, './src/').replace(/\.js$/, '.ts');
    if (jsr.exports[sub] !== fromSource)
      throw new Error(`${sub}: jsr ${jsr.exports[sub]}, npm builds it from ${fromSource}`);
  }
  return jsrPaths.join(', ');
});

check('deno publish --dry-run (type check, slow types, file list)', () => {
  const out = runDeno(['publish', '--dry-run', '--allow-dirty']);
  const files = out.split('\n').filter((l) => l.trim().startsWith('file://')).length;
  if (!/Dry run complete/.test(out)) throw new Error(out);
  return `${files} files`;
});

check('the JSR source graph verifies a token in Deno (and refuses a forged one)', () => {
  const key = Buffer.alloc(32, 7);
  const b64u = (v) => Buffer.from(v).toString('base64url');
  const input =
    `${b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.` +
    `${b64u(JSON.stringify({ sub: 'jsr', exp: 4102444800 }))}`;
  const token = `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
  const forged = `${input}.${createHmac('sha256', Buffer.alloc(32, 8)).update(input).digest('base64url')}`;
  // The package's main export as its source file, with jsr.json's import map (#core-loader...).
  const probe = `import { createVerifier, isJwtError } from '${join(root, jsr.exports['.'])}';
const v = createVerifier({ algorithms: ['HS256'], key: new Uint8Array(32).fill(7) });
const ok = v.verifySync(${JSON.stringify(token)}).payload.sub;
let bad = 'accepted';
try { v.verifySync(${JSON.stringify(forged)}); } catch (e) { bad = isJwtError(e) ? e.code : String(e); }
console.log(ok, bad);`;
  const out = runDeno(['eval', '--config', join(root, 'jsr.json'), '--ext=ts', probe])
    .trim()
    .split('\n')
    .pop();
  if (out !== 'jsr ERR_JWS_SIGNATURE_INVALID') throw new Error(`got: ${out}`);
  return out;
});

console.log(`[jsr] passed=${counts.passed} failed=${counts.failed}`);
process.exitCode = counts.failed > 0 ? 1 : 0;
