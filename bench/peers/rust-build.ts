// Builds the Rust wasm-bindgen peer (bench/peers/rust-verify) from the package registries
// alone, once: the benches load its output and call this only when it is missing or stale.
//   1. a rustc that has the wasm32-unknown-unknown std: rustup's if it has the target,
//      else Debian's (apt: rustc, cargo, libstd-rust-dev-wasm32; installed here when run
//      as root and missing). Debian's is rustc 1.63: the crate says `rust-version = "1.63"`
//      and its Cargo.lock (committed, lockfile version 3) was resolved for it with
//      `CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo generate-lockfile`.
//   2. the crates of Cargo.lock vendored into target/vendor (the newest cargo at hand),
//      then built --offline --locked with the rustc of step 1.
//   3. wasm-bindgen-cli at Cargo.lock's wasm-bindgen version (on PATH, else cargo install
//      --locked into bench/peers/.tools; its own crates want a newer rustc than 1.63: rustup's).
// Everything written is git-ignored (target/, pkg/, .tools/). A stamp of the inputs
// (Cargo.toml, Cargo.lock, src/, the rustc version, the build's arguments) skips a rebuild.
// Run: node bench/peers/rust-build.ts   (npm run bench:rust-peer)
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
export const crateDir = join(here, 'rust-verify');
export const pkgDir = join(crateDir, 'pkg');
const targetDir = join(crateDir, 'target');
const vendorDir = join(targetDir, 'vendor');
const stampFile = join(pkgDir, 'inputs.sha256');
const tools = join(here, '.tools');
const WASM = 'wasm32-unknown-unknown';
const APT_PACKAGES = ['rustc', 'cargo', 'libstd-rust-dev-wasm32'];

interface Toolchain {
  cargo: string;
  rustc: string;
}

const ok = (cmd: string, args: string[], opts: SpawnSyncOptions = {}): boolean =>
  spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], ...opts }).status === 0;
const out = (cmd: string, args: string[], env?: NodeJS.ProcessEnv): string | null => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env });
  return r.status === 0 ? r.stdout.trim() : null;
};

/** A rustc whose sysroot holds the wasm32 std, with the cargo beside it. */
function wasmToolchain(): Toolchain | null {
  const rustupBin = join(homedir(), '.cargo', 'bin');
  // rustup's first: a rustup toolchain with the target is newer than Debian's.
  const candidates: Toolchain[] = [
    { cargo: join(rustupBin, 'cargo'), rustc: join(rustupBin, 'rustc') },
    { cargo: '/usr/bin/cargo', rustc: '/usr/bin/rustc' },
  ];
  for (const t of candidates) {
    const sysroot = out(t.rustc, ['--print', 'sysroot']);
    if (sysroot !== null && existsSync(join(sysroot, 'lib', 'rustlib', WASM, 'lib'))) return t;
  }
  return null;
}

/** Debian's Rust with the wasm32 std, when this is Debian/Ubuntu run as root. */
function aptInstall(): boolean {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return false;
  console.log(`Rust peer: installing ${APT_PACKAGES.join(' ')} with apt-get (one time)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  return ok('apt-get', ['update', '-qq'], { env }) && ok('apt-get', ['install', '-y', '-qq', ...APT_PACKAGES], { env });
}

/** The newest cargo at hand (resolving, vendoring and cargo install need no wasm std). */
function newestCargo(fallback: string): string {
  const rustup = join(homedir(), '.cargo', 'bin', 'cargo');
  return out(rustup, ['--version']) !== null ? rustup : fallback;
}

function lockedVersion(name: string): string {
  const lock = readFileSync(join(crateDir, 'Cargo.lock'), 'utf8');
  const m = lock.match(new RegExp(`name = "${name}"\\nversion = "([^"]+)"`));
  if (m === null) throw new Error(`Cargo.lock has no ${name}`);
  return m[1]!;
}

const vendorConfig = [
  ...['--config', 'source.crates-io.replace-with="vendored"'],
  ...['--config', `source.vendored.directory="${vendorDir}"`],
];
const buildArgs = ['build', '--release', '--offline', '--locked', '--target', WASM, ...vendorConfig];

/** What the output depends on: the compiler, the build's arguments, the crate's files. */
function inputsHash(rustcVersion: string): string {
  const h = createHash('sha256').update(rustcVersion).update(buildArgs.join(' '));
  const src = join(crateDir, 'src');
  const files = [
    'Cargo.toml',
    'Cargo.lock',
    ...readdirSync(src)
      .sort()
      .map((f) => join('src', f)),
  ];
  for (const f of files) h.update(f).update(readFileSync(join(crateDir, f)));
  return h.digest('hex');
}

/**
 * Builds the peer if its output is missing or older than its inputs. Returns the
 * wasm-bindgen output directory, or null with the reason printed.
 */
export function buildRustPeer(): string | null {
  let tc = wasmToolchain();
  if (tc === null && aptInstall()) tc = wasmToolchain();
  if (tc === null) {
    const how = `Debian/Ubuntu: apt-get install ${APT_PACKAGES.join(' ')}; or rustup target add ${WASM}`;
    console.log(`Rust peer not built: no rustc with the ${WASM} target (${how}).`);
    return null;
  }
  const rustcVersion = out(tc.rustc, ['--version']) ?? '?';
  const stamp = inputsHash(rustcVersion);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return pkgDir;

  const t0 = Date.now();
  const resolver = newestCargo(tc.cargo);
  console.log(`Rust peer: building with ${rustcVersion} (${tc.cargo}), vendoring with ${resolver}: minutes, once.`);
  if (!ok(resolver, ['vendor', '--locked', '--quiet', vendorDir], { cwd: crateDir })) {
    console.log('Rust peer not built: cargo vendor failed (is crates.io reachable?).');
    return null;
  }
  // RUSTC pins the compiler: a rustup proxy earlier on PATH would otherwise be picked.
  const env = { ...process.env, RUSTC: tc.rustc, CARGO_TARGET_DIR: targetDir };
  if (!ok(tc.cargo, buildArgs, { cwd: crateDir, env })) {
    console.log('Rust peer not built: cargo build failed.');
    return null;
  }
  const version = lockedVersion('wasm-bindgen');
  // The glue's schema must match the crate's: a wasm-bindgen on PATH only at that version.
  const onPath = out('wasm-bindgen', ['--version'])?.endsWith(` ${version}`) === true;
  const bindgen = onPath ? 'wasm-bindgen' : join(tools, 'bin', 'wasm-bindgen');
  if (out(bindgen, ['--version'])?.endsWith(` ${version}`) !== true) {
    console.log(`Rust peer: installing wasm-bindgen-cli ${version} into bench/peers/.tools (one time)…`);
    const install = ['install', 'wasm-bindgen-cli', '--version', version, '--locked', '--root', tools];
    if (!ok(resolver, install, { cwd: here })) {
      console.log('Rust peer not built: could not install wasm-bindgen-cli.');
      return null;
    }
  }
  const wasm = join(targetDir, WASM, 'release', 'rust_verify.wasm');
  if (!ok(bindgen, ['--target', 'web', '--out-dir', pkgDir, wasm], { cwd: crateDir })) {
    console.log('Rust peer not built: wasm-bindgen failed.');
    return null;
  }
  writeFileSync(stampFile, stamp);
  console.log(`Rust peer built in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${pkgDir}`);
  return pkgDir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = buildRustPeer() === null ? 1 : 0;
