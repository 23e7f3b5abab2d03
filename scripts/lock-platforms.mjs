// Adds to package-lock.json the other platforms' optional binaries (deno,
// workerd, ...) that npm left out, so that `npm ci` accepts the lockfile on
// Linux, macOS and Windows alike. npm only locks an optional dependency whose
// manifest it could fetch; a registry (or mirror) that lacks one platform's
// build of a version makes npm drop that entry silently, and `npm ci` on that
// platform then refuses the lockfile as out of sync.
//
// For each optional dependency that a locked package names and the lockfile
// lacks, this writes an entry beside its locked siblings: the version the parent
// pins, `optional`, `dev`, and the `os`/`cpu`/`libc` that keep npm from
// installing it elsewhere, plus `integrity` when the registry serves that exact
// version. When it does not, os/cpu come from the newest version it does serve
// and the entry has no integrity (npm then installs without checking a hash):
// each such entry is listed at the end. Run after any `npm install` that
// changes the lockfile: `node scripts/lock-platforms.mjs` (then `--check` is
// what CI could run: exit 1 if anything is missing). A folder argument does
// the same for another lockfile: `node scripts/lock-platforms.mjs bench`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const check = args.includes('--check');
const lockPath = join(root, args.find((a) => !a.startsWith('--')) ?? '.', 'package-lock.json');
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

/** Where npm would find `name` from the package at `from` (node_modules lookup, walking up). */
function locate(from, name) {
  for (let dir = from; ;) {
    const key = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[key]) return key;
    if (dir === '') return undefined;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i < 0 ? '' : dir.slice(0, i);
  }
}

const missing = []; // { parent, key, name, version }
for (const [key, entry] of Object.entries(packages)) {
  if (key === '' || !entry.optionalDependencies) continue;
  const deps = Object.entries(entry.optionalDependencies);
  const present = deps.map(([name]) => locate(key, name)).find(Boolean);
  for (const [name, spec] of deps) {
    if (locate(key, name)) continue;
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec))
      throw new Error(`${key} wants ${name}@${spec}: only exact pins are handled`);
    // Beside a locked sibling (they share one folder), else right under the parent.
    const base = present ? present.slice(0, present.lastIndexOf('node_modules/')) : `${key}/`;
    missing.push({ parent: key, key: `${base}node_modules/${name}`, name, version: spec });
  }
}

if (missing.length === 0) {
  console.log(`${lockPath} locks every optional platform binary`);
  process.exit(0);
}
if (check) {
  for (const m of missing) console.log(`missing ${m.key}@${m.version} (optional dependency of ${m.parent})`);
  process.exit(1);
}

const registry = execFileSync('npm', ['config', 'get', 'registry'], {
  encoding: 'utf8',
  shell: process.platform === 'win32',
})
  .trim()
  .replace(/\/?$/, '/');
const packuments = new Map();
async function packument(name) {
  if (!packuments.has(name)) {
    const res = await fetch(`${registry}${name.replace('/', '%2f')}`, {
      headers: { accept: 'application/vnd.npm.install-v1+json' },
    });
    if (!res.ok) throw new Error(`${name}: registry answered ${res.status}`);
    packuments.set(name, await res.json());
  }
  return packuments.get(name);
}

const unverified = [];
for (const m of missing) {
  const doc = await packument(m.name);
  const exact = doc.versions[m.version];
  const manifest = exact ?? doc.versions[doc['dist-tags'].latest];
  const entry = { version: m.version };
  if (exact?.dist?.integrity) entry.integrity = exact.dist.integrity;
  else unverified.push(`${m.name}@${m.version} (os/cpu from ${manifest.version})`);
  for (const field of ['cpu', 'os', 'libc']) if (manifest[field]) entry[field] = manifest[field];
  entry.dev = true;
  entry.optional = true;
  if (manifest.license) entry.license = manifest.license;
  if (manifest.engines) entry.engines = manifest.engines;
  packages[m.key] = entry;
  console.log(`added ${m.key}@${m.version}${entry.integrity ? '' : ' (no integrity)'}`);
}

// npm keeps entries sorted by path.
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
if (unverified.length) {
  console.log(
    `\nThe registry does not serve these exact versions, so they are locked without an integrity hash:\n  ` +
      `${unverified.join('\n  ')}`,
  );
}
