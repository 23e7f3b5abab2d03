// `npm pack` as a publisher runs it: the repository's files are copied to a
// fresh tree with no build output at all (no dist/, no generated Wasm), and
// `npm pack` there must build everything itself through `prepack`. Then: what
// the tarball holds (built JS, types, the .wasm, README, LICENSE, package.json
// and nothing else), that every `exports`/`imports` target is in it, its size,
// that its Wasm (the .wasm file and the bytes embedded for the byte loader)
// equals the build of assembly/ in this tree (so the build is deterministic), and
// that the types resolve under every export condition (tsc per condition,
// publint, attw). Run after `npm run build`. Leaves the tarball unpacked in
// build/pack/package. Last line: `[pack] passed=N failed=N`.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checks } from './lib/checks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'build/pack');
// On Windows the .bin entries and npm are .cmd scripts: only a shell starts them.
const windows = process.platform === 'win32';
const bin = (name) => join(root, 'node_modules/.bin', windows ? `${name}.cmd` : name);
const { check, counts } = checks();

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
    ...opts,
  });
}

const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// --- a fresh tree: the files git would clone (with uncommitted edits), no build output ---
const fresh = join(out, 'fresh');
const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard']).split('\0').filter(Boolean);
for (const f of listed) {
  if (!existsSync(join(root, f))) continue; // deleted, not yet committed
  mkdirSync(dirname(join(fresh, f)), { recursive: true });
  copyFileSync(join(root, f), join(fresh, f));
}
// The installed tools only: node_modules is not part of a clone, and is not packed.
symlinkSync(join(root, 'node_modules'), join(fresh, 'node_modules'), 'dir');
check('the fresh tree has no build output before packing', () => {
  const built = ['dist', 'src/wasm/generated', 'build'].filter((p) => existsSync(join(fresh, p)));
  if (built.length) throw new Error(`already there: ${built.join(', ')}`);
});

// --- the tarball ---
// `npm pack` with its lifecycle scripts (prepack builds the Wasm core and dist/).
// Their output is kept off stdout, which carries the JSON report.
let info;
try {
  const packed = execFileSync('npm', ['pack', '--json', '--foreground-scripts=false', '--pack-destination', out], {
    cwd: fresh,
    shell: windows,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
  [info] = JSON.parse(packed.slice(packed.search(/^\[/m)));
} catch (e) {
  console.log(`FAIL npm pack in the fresh tree\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  console.log(`[pack] passed=${counts.passed} failed=${counts.failed + 1}`);
  process.exit(1);
}
const tarball = join(out, info.filename);
const files = info.files.map((f) => f.path).sort();
console.log(`${info.filename}: ${info.size} bytes packed, ${info.unpackedSize} unpacked, ${files.length} files`);
for (const f of info.files.sort((a, b) => a.path.localeCompare(b.path)))
  console.log(`  ${String(f.size).padStart(7)}  ${f.path}`);

// The guard configuration's JSON Schema ships for editors (`edgejwt/guard-config.schema.json`), copied from
// src/worker/.
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^dist\/.+\.js$/,
  /^dist\/.+\.d\.ts$/,
  /^dist\/wasm\/generated\/core\.wasm$/,
  /^dist\/worker\/guard-config\.schema\.json$/,
];
check('tarball holds only built JS, types, the .wasm, README, LICENSE, package.json', () => {
  const extra = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
  if (extra.length) throw new Error(`unexpected: ${extra.join(', ')}`);
});

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// `edgejwt-source` points TypeScript at src/ inside this repository (tsconfig.json
// customConditions); no runtime or bundler sets it, so its targets are not shipped.
function targets(value) {
  if (typeof value === 'string') return [value];
  return Object.entries(value ?? {}).flatMap(([condition, v]) => (condition === 'edgejwt-source' ? [] : targets(v)));
}
check('tarball holds README, LICENSE and every exports/imports target', () => {
  const need = [
    'README.md',
    'LICENSE',
    ...targets(pkg.exports),
    ...targets(pkg.imports),
    'dist/wasm/generated/core.wasm',
  ].map((p) => p.replace(/^\.\//, ''));
  const missing = [...new Set(need)].filter((p) => !files.includes(p));
  if (missing.length) throw new Error(`missing: ${missing.join(', ')}`);
});

check('no stale build output: every dist file comes from a src file', () => {
  const stale = files
    .filter((f) => f.startsWith('dist/') && f !== 'dist/wasm/generated/core.wasm')
    .filter((f) => !existsSync(join(root, 'src', f.slice(5).replace(/\.d\.ts$|\.js$/, '.ts'))));
  if (stale.length) throw new Error(`no source for: ${stale.join(', ')} (clean dist/ and rebuild)`);
});

const pkgDir = join(out, 'package');
run('tar', ['-xzf', tarball, '-C', out]);

// --- the Wasm in the tarball vs the build in this tree ---
// Two builds of assembly/: prepack's in the fresh tree (packed) and `npm run build`'s
// here. Equal bytes show the build is deterministic; no third build is needed, and
// this tree's files are only read (other suites may be reading them at the same time).
check('the .wasm and the embedded bytes equal the build of assembly/ in this tree; the build is deterministic', () => {
  const here = readFileSync(join(root, 'src/wasm/generated/core.wasm'));
  const packed = readFileSync(join(pkgDir, 'dist/wasm/generated/core.wasm'));
  const embedded = /'([A-Za-z0-9+/=]+)'/.exec(readFileSync(join(pkgDir, 'dist/wasm/generated/core-bytes.js'), 'utf8'));
  if (sha(packed) !== sha(here))
    throw new Error(
      `packed core.wasm ${sha(packed).slice(0, 16)} != this tree's ${sha(here).slice(0, 16)}: two builds of ` +
        `assembly/ differ (or assembly/ changed since npm run build)`,
    );
  if (!embedded || sha(Buffer.from(embedded[1], 'base64')) !== sha(here))
    throw new Error('bytes embedded in core-bytes.js differ from the built core.wasm');
  return `${here.length} bytes, sha256 ${sha(here).slice(0, 16)}…`;
});

// --- types, per condition, as a TypeScript user resolves them ---
const consumer = join(out, 'consumer');
mkdirSync(join(consumer, 'node_modules'), { recursive: true });
symlinkSync(pkgDir, join(consumer, 'node_modules/edgejwt'), 'dir');
symlinkSync(join(root, 'node_modules/hono'), join(consumer, 'node_modules/hono'), 'dir');
writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
writeFileSync(
  join(consumer, 'use.ts'),
  `import { createVerifier, type Verifier, type VerifyResult } from 'edgejwt';
import { JwtError, isJwtError, type JwtErrorCode } from 'edgejwt/errors';
import { jwtAuth, type JwtAuthEnv } from 'edgejwt/hono';
import guard, { createGuard, type GuardConfigInput } from 'edgejwt/worker';
import { Hono } from 'hono';

const verifier: Verifier = createVerifier({ algorithms: ['HS256'], key: new Uint8Array(32) });
export async function sub(token: string): Promise<string | undefined> {
  const result: VerifyResult = await verifier.verify(token);
  return result.payload.sub;
}
const code: JwtErrorCode = 'ERR_JWT_EXPIRED';
export const e: boolean = isJwtError(new JwtError(code), 'ERR_JWT_EXPIRED');
const app = new Hono<JwtAuthEnv>();
app.use(jwtAuth({ algorithms: ['HS256'], key: new Uint8Array(32) }));
app.get('/', (c) => c.text(String(c.get('jwtPayload').sub)));
export const fetchHandler: (request: Request, env: never, ctx: never) => Promise<Response> = guard.fetch;
const guardConfig: GuardConfigInput = { issuers: [{ issuer: 'https://id.example', audience: 'api', ` +
    `algorithms: ['RS256'], jwksUrl: 'https://id.example/jwks' }] };
export const embedded = createGuard(guardConfig);
// @ts-expect-error a rule's auth is required | optional | none
export const badRule: GuardConfigInput = { issuers: [], rules: [{ pathPrefix: '/', auth: 'sometimes' }] };
// Real types, not any: each of these must be an error.
// @ts-expect-error algorithms is a list
createVerifier({ algorithms: 'HS256' });
// @ts-expect-error not an error code
export const bad: JwtErrorCode = 'ERR_NOT_A_CODE';
`,
);
// Where each subpath's types come from under each condition (cheap: resolution only)...
const require = createRequire(import.meta.url);
const ts = require('typescript');
const SUBPATHS = ['edgejwt', 'edgejwt/hmac', 'edgejwt/worker', 'edgejwt/hono', 'edgejwt/errors'];
for (const condition of ['workerd', 'deno', 'bun', 'node', 'browser', 'default']) {
  check(`types resolve under condition ${condition}`, () => {
    const options = {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      customConditions: condition === 'default' ? [] : [condition],
    };
    const found = SUBPATHS.map((spec) => {
      const r = ts.resolveModuleName(spec, join(consumer, 'use.ts'), options, ts.sys).resolvedModule;
      // node_modules/edgejwt is a link to the unpacked tarball: TypeScript reports the real path.
      if (!r || r.extension !== '.d.ts' || !r.resolvedFileName.startsWith(join(pkgDir, 'dist') + '/'))
        throw new Error(`${spec}: ${r ? r.resolvedFileName : 'unresolved'}`);
      return r.resolvedFileName.slice(pkgDir.length + 1);
    });
    return found.join(', ');
  });
}
// ...then a full strict type check of a consumer, as bundler and as Node16 users compile it.
for (const s of [
  { name: 'Bundler', module: 'ESNext', moduleResolution: 'Bundler' },
  { name: 'Node16', module: 'Node16', moduleResolution: 'Node16' },
]) {
  check(`consumer type-checks (${s.name} resolution, skipLibCheck off)`, () => {
    const { name, ...options } = s;
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          ...options,
          target: 'ES2022',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
        },
        files: ['use.ts'],
      }),
    );
    try {
      run(bin('tsc'), ['-p', consumer], { shell: windows });
    } catch (e) {
      throw new Error(`${e.stdout ?? ''}${e.stderr ?? ''}`.trim() || String(e));
    }
  });
}

check('importing edgejwt/errors alone instantiates no Wasm (and the probe sees the library do so)', () => {
  // Counts WebAssembly instances made while importing, from the consumer dir so exports apply.
  const probe = `let n = 0; const I = WebAssembly.Instance;
WebAssembly.Instance = function (...a) { n++; return new I(...a); };
const errors = await import('edgejwt/errors');
if (typeof errors.JwtError !== 'function') throw new Error('no JwtError');
const afterErrors = n;
const lib = await import('edgejwt');
const v = lib.createVerifier({ algorithms: ['HS256'], key: new Uint8Array(32) });
// The HS secret reaches the core at the first verify: one verify, whatever its verdict.
try { v.verifySync('eyJhbGciOiJIUzI1NiJ9.e30.' + 'A'.repeat(43)); } catch {}
console.log(afterErrors, n);`;
  const [afterErrors, afterLib] = run(process.execPath, ['--input-type=module', '-e', probe], { cwd: consumer })
    .trim()
    .split(' ')
    .map(Number);
  if (afterErrors !== 0) throw new Error(`edgejwt/errors made ${afterErrors} Wasm instance(s)`);
  if (!(afterLib > 0)) throw new Error('the probe saw no instance from the library either: it proves nothing');
  return `0 instances from errors, ${afterLib} after a verifier's first verify`;
});

check('npm install of the tarball into an empty project, then a token verifies in Node (a forged one does not)', () => {
  // A real install (not a link): what a user's `npm install edgejwt` puts on disk.
  const app = join(out, 'installed');
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'installed', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--offline', tarball], {
    cwd: app,
    stdio: 'pipe',
    shell: windows,
  });
  const key = Buffer.alloc(32, 7);
  const b64u = (v) => Buffer.from(v).toString('base64url');
  const input =
    `${b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.` +
    `${b64u(JSON.stringify({ sub: 'installed', exp: 4102444800 }))}`;
  const mac = (k) => createHmac('sha256', k).update(input).digest('base64url');
  const guardInput =
    `${b64u(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.` +
    `${b64u(JSON.stringify({ iss: 'https://id.example', aud: 'api', sub: 'guarded', exp: 4102444800 }))}`;
  const probe =
    `import { createVerifier } from 'edgejwt';
import { isJwtError } from 'edgejwt/errors';
const v = createVerifier({ algorithms: ['HS256'], key: new Uint8Array(32).fill(7) });
let forged = 'accepted';
try { v.verifySync(${JSON.stringify(`${input}.${mac(Buffer.alloc(32, 8))}`)}); } ` +
    `catch (e) { forged = isJwtError(e) ? e.code : String(e); }
console.log(v.verifySync(${JSON.stringify(`${input}.${mac(key)}`)}).payload.sub, forged);`;
  const got = run(process.execPath, ['--input-type=module', '-e', probe], { cwd: app }).trim();
  if (got !== 'installed ERR_JWS_SIGNATURE_INVALID') throw new Error(`got: ${got}`);

  // The guard as a library in the same install: edgejwt/worker's createGuard decides on a
  // request (here in Node: HS256 needs no Worker binding), its default export is a handler,
  // and the JSON Schema subpath resolves to a file that parses.
  const guardProbe =
    `import guard, { createGuard } from 'edgejwt/worker';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
if (typeof guard.fetch !== 'function') throw new Error('default export has no fetch');
const g = createGuard({ issuers: [{ issuer: 'https://id.example', audience: 'api', algorithms: ['HS256'], ` +
    `secretBinding: 'K' }], cache: { jwks: false } });
const env = { K: ${JSON.stringify(Buffer.alloc(32, 7).toString('base64url'))} };
const ctx = { waitUntil() {} };
const req = (t) => new Request('https://guard.example/x', ` +
    `t === undefined ? {} : { headers: { authorization: 'Bearer ' + t } });
const ok = await g.authenticate(req(` +
    `${JSON.stringify(`${guardInput}.${createHmac('sha256', key).update(guardInput).digest('base64url')}`)}), ` +
    `env, ctx);
const none = await g.authenticate(req(), env, ctx);
const schema = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('edgejwt/guard-config.schema.json')), 'utf8'));
console.log(ok.ok && ok.payload.sub, none.ok ? 'passed' : none.response.status, typeof schema.properties.issuers);`;
  // The first line: the guard's own log lines (deferred past the response) follow it.
  const guardGot = run(process.execPath, ['--input-type=module', '-e', guardProbe], { cwd: app }).trim().split('\n')[0];
  if (guardGot !== 'guarded 401 object') throw new Error(`edgejwt/worker: got ${guardGot}`);

  // The `edgejwt` bin as npm linked it: a good wrangler.toml passes (0), a typo fails naming the setting (1).
  // Wrangler, its optional peer, resolves from the node_modules above build/pack, as from a project's own.
  const toml = (config) => `name = "g"\n[vars]\nGUARD_CONFIG = '${JSON.stringify(config)}'\n`;
  const good = {
    issuers: [
      { issuer: 'https://id.example', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example/jwks' },
    ],
    cache: { jwks: false },
  };
  writeFileSync(join(app, 'good.toml'), toml(good));
  writeFileSync(join(app, 'bad.toml'), toml({ ...good, publicPath: ['/x'] }));
  const edgejwt = join(app, 'node_modules/.bin', windows ? 'edgejwt.cmd' : 'edgejwt');
  const cli = (file) => spawnSync(edgejwt, ['check-config', file], { cwd: app, encoding: 'utf8', shell: windows });
  const okRun = cli('good.toml');
  if (okRun.status !== 0)
    throw new Error(`edgejwt check-config good.toml: exit ${okRun.status} ${okRun.stdout}${okRun.stderr}`);
  const badRun = cli('bad.toml');
  if (badRun.status !== 1 || !`${badRun.stdout}${badRun.stderr}`.includes('publicPath'))
    throw new Error(`edgejwt check-config bad.toml: exit ${badRun.status} ${badRun.stdout}${badRun.stderr}`);
  return `${got}; edgejwt/worker: ${guardGot}; bin: exit 0 / 1`;
});

check('publint (errors and warnings)', () => {
  try {
    return run(bin('publint'), ['run', pkgDir, '--pack', 'false', '--level', 'warning', '--strict'], { shell: windows })
      .trim()
      .split('\n')
      .pop();
  } catch (e) {
    throw new Error(`${e.stdout ?? ''}${e.stderr ?? ''}`.trim());
  }
});

check('attw (are the types wrong), esm-only profile', () => {
  try {
    run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color'], { shell: windows });
    return 'no problems';
  } catch (e) {
    throw new Error(`${e.stdout ?? ''}${e.stderr ?? ''}`.trim());
  }
});

console.log(`[pack] passed=${counts.passed} failed=${counts.failed} size=${info.size} files=${files.length}`);
process.exitCode = counts.failed > 0 ? 1 : 0;
