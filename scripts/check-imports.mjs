// The import rules of docs/architecture.md, checked by dependency-cruiser with the rules
// in .dependency-cruiser.cjs (no circles, type-only imports included; the layers; the
// imports forbidden outright). Prints each violation, then one line per rule and
// `[imports] passed=N failed=N` (N rules) for scripts/test-all.mjs. Exits 1 on any
// violation or when the tool does not run.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
const r = spawnSync(process.execPath, [cli, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});

let result;
try {
  result = JSON.parse(r.stdout);
} catch {
  process.stderr.write(r.stderr);
  console.log('dependency-cruiser did not report (see above)');
  console.log('[imports] passed=0 failed=1');
  process.exit(1);
}

const { violations, ruleSetUsed, totalCruised } = result.summary;
const failedRules = new Set();
for (const v of violations) {
  failedRules.add(v.rule.name);
  const path = v.cycle ? [v.from, ...v.cycle.map((c) => c.name)].join(' -> ') : `${v.from} -> ${v.to}`;
  console.log(`${v.rule.severity} ${v.rule.name}: ${path}`);
}
const rules = ruleSetUsed.forbidden ?? [];
for (const rule of rules) console.log(`${failedRules.has(rule.name) ? 'FAIL' : 'ok  '} ${rule.name}`);
console.log(`${totalCruised} modules cruised, ${violations.length} violations`);
const failed = rules.filter((rule) => failedRules.has(rule.name)).length;
console.log(`[imports] passed=${rules.length - failed} failed=${failed}`);
process.exitCode = failed === 0 && rules.length > 0 ? 0 : 1;
