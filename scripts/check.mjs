// `npm run check`: the one command before a pull request (CONTRIBUTING.md). Runs, one after
// another and all of them even when one fails: the format check and the size budgets when
// package.json has them (`format:check`, `size`), the line length, the type check, the import rules, the
// generated files, and the unit tests in Node. It needs no browser and no network beyond what
// those steps use; the full suite (every runtime, workerd, the pack check) is `npm test`.
// A node script (not a `&&` chain) so that it says which steps failed, on Windows too.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const STEPS = ['format:check', 'check:lines', 'typecheck', 'check:imports', 'check:generated', 'size', 'test:node'];

/** Runs `npm <args>` with its output live; its exit status (1 when it did not start). */
function npm(args) {
  return spawnSync('npm', args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status ?? 1;
}

// What the type check reads: the benches' peers (a fresh clone lacks them, as in scripts/test-all.mjs),
// the Wasm core (src/wasm/generated/, built, not committed) and dist/'s types (the examples and test-d).
if (!existsSync(join(root, 'bench/node_modules/.package-lock.json'))) {
  npm(['--prefix', 'bench', 'ci', '--no-audit', '--no-fund', '--loglevel=error']);
}
if (!existsSync(join(root, 'src/wasm/generated/core-bytes.ts'))) npm(['run', '--silent', 'build:wasm']);
const built = npm(['run', '--silent', 'build:ts']) === 0;

const results = [{ name: 'build:ts', verdict: built ? 'ok' : 'FAILED' }];
for (const name of STEPS) {
  if (scripts[name] === undefined) {
    results.push({ name, verdict: 'none configured' });
    continue;
  }
  console.log(`\n== npm run ${name} ==`);
  const at = Date.now();
  const status = npm(['run', '--silent', name]);
  const seconds = ((Date.now() - at) / 1000).toFixed(1);
  results.push({ name, verdict: status === 0 ? `ok (${seconds} s)` : `FAILED (exit ${status}, ${seconds} s)` });
}
console.log('\n== npm run check ==');
for (const { name, verdict } of results) console.log(`${name.padEnd(16)} ${verdict}`);
process.exitCode = results.some((r) => r.verdict.startsWith('FAILED')) ? 1 : 0;
