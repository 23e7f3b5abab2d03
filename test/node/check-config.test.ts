// `npx edgejwt check-config`: the Wrangler readers, the binding checks, the
// built bin's exit codes, and the JSON Schema kept in step with parseConfig.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_ALGORITHMS } from '../../src/algorithms.js';
import { checkWranglerConfig } from '../../src/cli/check-config.js';
import { parseJsonc } from '../../src/cli/jsonc.js';
import { parseToml } from '../../src/cli/toml.js';
import { CONFIG_KEYS } from '../../src/worker/config.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const schema = JSON.parse(readFileSync(join(root, 'src/worker/guard-config.schema.json'), 'utf8')) as {
  properties: Record<string, { properties?: Record<string, unknown> }>;
  $defs: Record<string, { properties: Record<string, unknown> }>;
};

const goodConfig = { issuers: [{ issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example.com/jwks' }] };

function toml(config: unknown, extra = ''): string {
  return `name = "g"\nmain = "x.ts"\n\n[[kv_namespaces]]\nbinding = "JWKS_CACHE"\nid = "1"\n${extra}\n[vars]\nGUARD_CONFIG = '''\n${JSON.stringify(config, null, 2)}\n'''\n`;
}

describe('readers', () => {
  it('TOML: the shapes wrangler.toml uses', () => {
    const t = parseToml(`# c\nname = "a" # tail\nflag = true\nn = 1_000\nlist = [ "x", 'y', ]\ninline = { a = 1, b.c = "d" }\ndate = 2026-11-01\n[alias]\n"#core" = "./x.ts"\n[[kv]]\nbinding = "A"\n[[kv]]\nbinding = "B"\n[env.dev.vars]\nS = """\nline\\n"""\nL = '''\n{"a": "b\\\\c"}\n'''`);
    expect(t).toEqual({
      name: 'a', flag: true, n: 1000, list: ['x', 'y'], inline: { a: 1, b: { c: 'd' } }, date: '2026-11-01',
      alias: { '#core': './x.ts' }, kv: [{ binding: 'A' }, { binding: 'B' }],
      env: { dev: { vars: { S: 'line\n', L: '{"a": "b\\\\c"}\n' } } },
    });
    expect(() => parseToml('a = 1\na = 2')).toThrow(/line 2: a is defined twice/);
    expect(() => parseToml('a = "x')).toThrow(/unterminated/);
  });

  it("the repository's own wrangler.toml reads, and its dev config checks out", () => {
    const text = readFileSync(join(root, 'wrangler.toml'), 'utf8');
    const r = checkWranglerConfig(text, 'wrangler.toml', { env: 'dev' });
    expect(r.errors).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.notes.join('\n')).toContain('ADMIN_SECRET is a plain var');
  });

  it('JSONC: comments and trailing commas, strings untouched', () => {
    expect(parseJsonc('{ // x\n "u": "https://a/b, ]", /* y */ "l": [1, 2,], }')).toEqual({ u: 'https://a/b, ]', l: [1, 2] });
  });
});

describe('checkWranglerConfig', () => {
  it('a good config passes; a typo fails naming the setting', () => {
    expect(checkWranglerConfig(toml(goodConfig), 'wrangler.toml').ok).toBe(true);
    const bad = checkWranglerConfig(toml({ ...goodConfig, publicPath: ['/x'] }), 'wrangler.toml');
    expect(bad.ok).toBe(false);
    expect(bad.errors).toEqual(['GUARD_CONFIG publicPath: unknown setting']);
  });

  it('bindings: JWKS_CACHE unless cache.jwks is off, VERIFY_CACHE with cache.verify, the service binding', () => {
    const noKv = `name = "g"\n[vars]\nGUARD_CONFIG = '${JSON.stringify(goodConfig)}'\n`;
    expect(checkWranglerConfig(noKv, 'wrangler.toml').errors[0]).toMatch(/cache\.jwks: the JWKS_CACHE KV binding is missing/);
    expect(checkWranglerConfig(`name = "g"\n[vars]\nGUARD_CONFIG = '${JSON.stringify({ ...goodConfig, cache: { jwks: false } })}'\n`, 'wrangler.toml').ok).toBe(true);
    expect(checkWranglerConfig(toml({ ...goodConfig, cache: { verify: 'all' } }), 'wrangler.toml').errors[0]).toMatch(/cache\.verify/);
    expect(checkWranglerConfig(toml({ ...goodConfig, origin: { service: 'API' } }), 'wrangler.toml').errors[0]).toMatch(/origin\.service: no \[\[services\]\] binding named API/);
    expect(checkWranglerConfig(toml({ ...goodConfig, origin: { service: 'API' } }, '[[services]]\nbinding = "API"\nservice = "api"\n'), 'wrangler.toml').ok).toBe(true);
  });

  it('environments: vars and bindings are read from the environment, not inherited', () => {
    const text = `${toml(goodConfig)}\n[env.prod]\n[env.prod.vars]\nGUARD_CONFIG = '${JSON.stringify(goodConfig)}'\n`;
    expect(checkWranglerConfig(text, 'wrangler.toml', { env: 'prod' }).errors[0]).toMatch(/JWKS_CACHE KV binding is missing from env\.prod\.kv_namespaces/);
    expect(checkWranglerConfig(text, 'wrangler.toml', { env: 'nope' }).errors[0]).toMatch(/env\.nope: no such environment/);
  });

  it('wrangler.jsonc with GUARD_CONFIG as an object', () => {
    const text = `{\n  // the guard\n  "name": "g",\n  "kv_namespaces": [{ "binding": "JWKS_CACHE", "id": "1" },],\n  "vars": { "GUARD_CONFIG": ${JSON.stringify(goodConfig)} },\n}`;
    expect(checkWranglerConfig(text, 'wrangler.jsonc').ok).toBe(true);
  });

  it('GUARD_CONFIG kept as a secret: --config supplies it, the file supplies the bindings', () => {
    const text = `name = "g"\n[[kv_namespaces]]\nbinding = "JWKS_CACHE"\nid = "1"\n`;
    expect(checkWranglerConfig(text, 'wrangler.toml').errors[0]).toMatch(/vars\.GUARD_CONFIG: not set/);
    expect(checkWranglerConfig(text, 'wrangler.toml', { guardConfig: JSON.stringify(goodConfig) }).ok).toBe(true);
  });
});

describe('the edgejwt bin (built: dist/cli/edgejwt.js)', () => {
  const bin = join(root, 'dist/cli/edgejwt.js');
  const run = (cwd: string, ...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });

  it('exit 0 for a good file, 1 naming the setting, 2 for usage errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'edgejwt-check-'));
    writeFileSync(join(dir, 'wrangler.toml'), toml(goodConfig));
    const ok = run(dir, 'check-config');
    expect(ok.stdout).toContain('ok: GUARD_CONFIG');
    expect(ok.status).toBe(0);
    writeFileSync(join(dir, 'bad.toml'), toml({ ...goodConfig, rules: [{ pathPrefix: '/a', auth: 'maybe' }] }));
    const bad = run(dir, 'check-config', 'bad.toml');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('error: GUARD_CONFIG rules[0].auth:');
    expect(run(dir, 'check-config', '--bogus').status).toBe(2);
    expect(run(dir, 'check-config', 'missing.toml').status).toBe(2);
    expect(run(dir, 'frobnicate').status).toBe(2);
  });
});

describe('JSON Schema (src/worker/guard-config.schema.json)', () => {
  const keys = (o: { properties?: Record<string, unknown> } | undefined): string[] => Object.keys(o?.properties ?? {}).sort();
  it('names exactly the settings parseConfig accepts, object by object', () => {
    expect(Object.keys(schema.properties).sort()).toEqual([...CONFIG_KEYS.top].sort());
    expect(keys(schema.$defs.issuer)).toEqual([...CONFIG_KEYS.issuer].sort());
    expect(keys(schema.$defs.rule)).toEqual([...CONFIG_KEYS.rule].sort());
    expect(keys(schema.$defs.cors)).toEqual([...CONFIG_KEYS.cors].sort());
    expect(keys(schema.properties.cache)).toEqual([...CONFIG_KEYS.cache].sort());
    expect(keys(schema.properties.jwks)).toEqual([...CONFIG_KEYS.jwks].sort());
    expect(keys(schema.properties.paths)).toEqual([...CONFIG_KEYS.paths].sort());
    expect(keys(schema.properties.admin)).toEqual([...CONFIG_KEYS.admin].sort());
    expect(keys(schema.properties.originAssertion)).toEqual([...CONFIG_KEYS.originAssertion].sort());
  });

  it('lists exactly the supported algorithms', () => {
    const algs = (schema.$defs.issuer!.properties.algorithms as { oneOf: { enum?: string[] }[] }).oneOf[0]!.enum!;
    expect([...algs].sort()).toEqual([...SUPPORTED_ALGORITHMS].sort());
  });
});
