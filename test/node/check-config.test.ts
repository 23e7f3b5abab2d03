// `edgejwt check-config`: the Wrangler file read through Wrangler's own reader, the
// binding checks, positions in errors, the built bin's exit codes, --version and
// --help, the contributors' `npm run check-config`, and the JSON Schema kept in
// step with parseConfig.
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_ALGORITHMS } from '../../src/algorithms.js';
import { checkConfigFile, checkGuardConfig, type CheckOptions } from '../../src/cli/check-config.js';
import { CliError, EXIT } from '../../src/cli/cli-error.js';
import { keyOffset, positionAt } from '../../src/cli/source-position.js';
import { CONFIG_KEYS } from '../../src/worker/config.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const schema = JSON.parse(readFileSync(join(root, 'src/worker/guard-config.schema.json'), 'utf8')) as {
  properties: Record<string, { properties?: Record<string, unknown> }>;
  $defs: Record<string, { properties: Record<string, unknown> }>;
};

const goodConfig = {
  issuers: [
    {
      issuer: 'https://id.example.com',
      audience: 'api',
      algorithms: ['RS256'],
      jwksUrl: 'https://id.example.com/jwks',
    },
  ],
};

function toml(config: unknown, extra = ''): string {
  return (
    `name = "g"\nmain = "x.ts"\n\n[[kv_namespaces]]\nbinding = "JWKS_CACHE"\nid = "1"\n` +
    `${extra}\n[vars]\nGUARD_CONFIG = \'\'\'\n${JSON.stringify(config, null, 2)}\n\'\'\'\n`
  );
}

/** Writes `files` into a fresh folder and returns its path. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'edgejwt-check-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** checkConfigFile with the file named relative to `dir`. */
async function check(dir: string, file: string, options: Omit<CheckOptions, 'file'> = {}) {
  const guardConfigFile = options.guardConfigFile === undefined ? undefined : join(dir, options.guardConfigFile);
  return (
    await checkConfigFile({
      ...options,
      file: join(dir, file),
      ...(guardConfigFile === undefined ? {} : { guardConfigFile }),
    })
  ).result;
}

async function refusal(p: Promise<unknown>): Promise<CliError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CliError);
  return e as CliError;
}

describe('reading the Wrangler file through Wrangler (unstable_readConfig)', () => {
  it("the repository's own wrangler.toml reads, and its dev config checks out", async () => {
    const { result } = await checkConfigFile({ file: join(root, 'wrangler.toml'), env: 'dev' });
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.notes.join('\n')).toContain('ADMIN_SECRET is a plain var');
  });

  it('a TOML syntax error names the file, line and column (exit 1)', async () => {
    const dir = project({ 'wrangler.toml': 'name = "g"\nmain = "x.ts"\n[vars]\nA = "unterminated\n' });
    const e = await refusal(check(dir, 'wrangler.toml'));
    expect(e.exitCode).toBe(EXIT.invalid);
    expect(e.at).toMatchObject({ line: 4 });
    expect(e.toString()).toMatch(/wrangler\.toml:4:\d+: /);
  });

  it('a JSONC syntax error names the line and column (exit 1); comments and trailing commas are fine', async () => {
    const bad = project({ 'wrangler.jsonc': '{\n  "name": "g", // the guard\n  "main": "x.ts"\n  "vars": {}\n}\n' });
    const e = await refusal(check(bad, 'wrangler.jsonc'));
    expect(e.exitCode).toBe(EXIT.invalid);
    expect(e.at).toMatchObject({ line: 4, column: 3 });
    const good = project({
      'wrangler.jsonc':
        `{\n  // the guard\n  "name": "g", "main": "x.ts",\n  "kv_namespaces": [{ "binding": "JWKS_CACHE", ` +
        `"id": "1" },],\n  "vars": { "GUARD_CONFIG": ${JSON.stringify(goodConfig)} },\n}`,
    });
    expect((await check(good, 'wrangler.jsonc')).ok).toBe(true);
  });

  it('a missing file is exit 2', async () => {
    const e = await refusal(check(project({}), 'missing.toml'));
    expect(e.exitCode).toBe(EXIT.usage);
  });
});

describe('checking GUARD_CONFIG', () => {
  it('a good config passes; a typo fails naming the setting and where its key is written', async () => {
    expect((await check(project({ 'wrangler.toml': toml(goodConfig) }), 'wrangler.toml')).ok).toBe(true);
    const bad = await check(project({ 'wrangler.toml': toml({ ...goodConfig, publicPath: ['/x'] }) }), 'wrangler.toml');
    expect(bad.ok).toBe(false);
    // The key inside GUARD_CONFIG's value (which starts on line 10): line 21, after two spaces; with a guess.
    const guess = /wrangler\.toml:21:3: GUARD_CONFIG publicPath: unknown setting \(did you mean "publicPaths"\?\)$/;
    expect(bad.errors).toEqual([expect.stringMatching(guess)]);
  });

  it('guard_config_json_error_points_at_line_and_column', async () => {
    const text =
      'name = "g"\nmain = "x.ts"\n[vars]\nGUARD_CONFIG = \'\'\'\n{\n  "issuers": [],\n  "realm" "x"\n}\n\'\'\'\n';
    const r = await check(project({ 'wrangler.toml': text }), 'wrangler.toml');
    expect(r.ok).toBe(false);
    expect(r.errors).toHaveLength(1);
    // Not "GUARD_CONFIG GUARD_CONFIG", and none of the config's text.
    expect(r.errors[0]).not.toContain('GUARD_CONFIG GUARD_CONFIG');
    expect(r.errors[0]).not.toContain('realm');
    let positioned = true;
    try {
      JSON.parse('{"a" 1}');
    } catch (e) {
      positioned = /at position/.test((e as Error).message);
    }
    // Node 22+ names the position in the JSON (line 7, column 11: the `"x"`); Node 20 does not, and the value's start
    // is named.
    expect(r.errors[0]).toMatch(
      positioned
        ? /wrangler\.toml:7:11: GUARD_CONFIG is not valid JSON$/
        : /wrangler\.toml:5:1: GUARD_CONFIG is not valid JSON$/,
    );
  });

  it('guard_config_accepts_$schema', async () => {
    const withSchema = { $schema: './node_modules/edgejwt/dist/worker/guard-config.schema.json', ...goodConfig };
    expect((await check(project({ 'wrangler.toml': toml(withSchema) }), 'wrangler.toml')).errors).toEqual([]);
  });

  it('path_patterns_refused_with_the_supported_syntax', async () => {
    const r = await check(
      project({ 'wrangler.toml': toml({ ...goodConfig, publicPaths: ['/health', '/static/**'] }) }),
      'wrangler.toml',
    );
    expect(r.errors).toEqual([
      expect.stringContaining(
        'GUARD_CONFIG publicPaths[1]: only one * at the end is supported: write "/static/*" for every path ' +
          'that starts with /static/',
      ),
    ]);
    const rule = await check(
      project({ 'wrangler.toml': toml({ ...goodConfig, rules: [{ pathPrefix: '/api/*', auth: 'none' }] }) }),
      'wrangler.toml',
    );
    expect(rule.errors).toEqual([
      expect.stringContaining(
        'GUARD_CONFIG rules[0].pathPrefix: a pathPrefix is a plain prefix without wildcards: write "/api/"',
      ),
    ]);
  });

  it('bindings: JWKS_CACHE unless cache.jwks is off, VERIFY_CACHE with cache.verify, the service binding', async () => {
    const noKv = (c: unknown) => `name = "g"\nmain = "x.ts"\n[vars]\nGUARD_CONFIG = \'${JSON.stringify(c)}\'\n`;
    expect((await check(project({ 'w.toml': noKv(goodConfig) }), 'w.toml')).errors[0]).toMatch(
      /cache\.jwks: the JWKS_CACHE KV binding is missing/,
    );
    expect((await check(project({ 'w.toml': noKv({ ...goodConfig, cache: { jwks: false } }) }), 'w.toml')).ok).toBe(
      true,
    );
    expect(
      (await check(project({ 'w.toml': toml({ ...goodConfig, cache: { verify: 'all' } }) }), 'w.toml')).errors[0],
    ).toMatch(/cache\.verify/);
    const service = { ...goodConfig, origin: { service: 'API' } };
    expect((await check(project({ 'w.toml': toml(service) }), 'w.toml')).errors[0]).toMatch(
      /origin\.service: no \[\[services\]\] binding named API/,
    );
    expect(
      (await check(project({ 'w.toml': toml(service, '[[services]]\nbinding = "API"\nservice = "api"\n') }), 'w.toml'))
        .ok,
    ).toBe(true);
  });

  it(
    'environments: vars and bindings are read from the ' + 'environment, not inherited; an unknown one is refused',
    async () => {
      const dir = project({
        'wrangler.toml':
          `${toml(goodConfig)}\n[env.prod]\n[env.prod.vars]\nGUARD_CONFIG = \'` +
          `${JSON.stringify({ ...goodConfig, publicPaths: ['/a*b'] })}\'\n`,
      });
      const prod = await check(dir, 'wrangler.toml', { env: 'prod' });
      // The environment's own GUARD_CONFIG is the one checked (and located: line 26, at the path's list element).
      expect(prod.errors[0]).toMatch(
        /wrangler\.toml:26:161: GUARD_CONFIG publicPaths\[0\]: only one \* at the end is supported: write "\/a\*"/,
      );
      const e = await refusal(check(dir, 'wrangler.toml', { env: 'nope' }));
      // A usage error, as docs/deploy.md's exit code table says (it was 1 before issue 37).
      expect(e.exitCode).toBe(EXIT.usage);
      expect(e.message).toMatch(/No environment found in configuration with name "nope"/);
    },
  );

  it('GUARD_CONFIG kept as a secret: --config supplies it, the file supplies the bindings', async () => {
    const dir = project({
      'wrangler.toml': 'name = "g"\nmain = "x.ts"\n[[kv_namespaces]]\nbinding = "JWKS_CACHE"\nid = "1"\n',
      'guard.json': JSON.stringify(goodConfig),
      'bad.json': '{\n  "issuers": [,]\n}',
    });
    expect((await check(dir, 'wrangler.toml')).errors[0]).toMatch(/vars\.GUARD_CONFIG: not set/);
    expect((await check(dir, 'wrangler.toml', { guardConfigFile: 'guard.json' })).ok).toBe(true);
    expect((await check(dir, 'wrangler.toml', { guardConfigFile: 'bad.json' })).errors[0]).toMatch(
      /bad\.json:(2:15|1:1): GUARD_CONFIG is not valid JSON$/,
    );
    expect((await refusal(check(dir, 'wrangler.toml', { guardConfigFile: 'none.json' }))).exitCode).toBe(EXIT.usage);
  });

  it('checkGuardConfig takes an object, the bindings of one scope and a position', () => {
    const r = checkGuardConfig(
      { ...goodConfig, rules: [{ pathPrefix: '/a', auth: 'maybe' }] },
      { vars: {}, kvBindings: new Set(['JWKS_CACHE']), serviceBindings: new Set(), where: '' },
      { file: 'f.json', line: 1, column: 1 },
    );
    expect(r.errors).toEqual([expect.stringMatching(/^f\.json:1:1: GUARD_CONFIG rules\[0\]\.auth: /)]);
  });

  it(
    'check_config_names_origin_assertion_key: the origin assertion key is one of the secrets the guard reads ' +
      '(one list: src/worker/bindings.ts)',
    () => {
      const scope = {
        vars: { SIGNING_JWK: '{}' },
        kvBindings: new Set(['JWKS_CACHE']),
        serviceBindings: new Set<string>(),
        where: '',
      };
      const r = checkGuardConfig({ ...goodConfig, originAssertion: { keyBinding: 'ASSERTION_JWK' } }, scope);
      expect(r.ok).toBe(true);
      expect(r.notes.join('\n')).toMatch(/secrets the guard reads \(cannot be checked here\): .*ASSERTION_JWK/);
      const plain = checkGuardConfig({ ...goodConfig, originAssertion: { keyBinding: 'SIGNING_JWK' } }, scope);
      expect(plain.notes.join('\n')).toContain('SIGNING_JWK is a plain var');
    },
  );

  it('check_config_warns_what_the_cache_api_tier_needs_for_fetched_key_sets', () => {
    const scope = (vars: Record<string, string>) => ({
      vars,
      kvBindings: new Set(['JWKS_CACHE']),
      serviceBindings: new Set<string>(),
      where: '',
    });
    const notes = (config: unknown, vars: Record<string, string> = {}) =>
      checkGuardConfig(config, scope(vars)).notes.join('\n');
    expect(notes(goodConfig)).toMatch(
      new RegExp(
        String.raw`CACHE_KEY secret is set; without it the Cache API tier .* ` +
          String.raw`23 provider fetches a minute per data centre instead of 2`,
      ),
    );
    expect(notes(goodConfig)).toMatch(/Cache API stores nothing on \*\.workers\.dev/);
    // Not for inline keys, nor with the tier turned off, nor with CACHE_KEY visible (a local var).
    const inline = {
      issuers: [{ issuer: 'https://id.example.com', audience: 'api', algorithms: ['HS256'], secretBinding: 'HS_KEY' }],
    };
    expect(notes(inline)).not.toMatch(/Cache API/);
    expect(notes({ ...goodConfig, cache: { jwksColo: false } })).not.toMatch(/Cache API/);
    expect(notes(goodConfig, { CACHE_KEY: 'x' })).not.toMatch(/Cache API/);
  });

  it(
    'check_config_dpop: the replay Durable Object binding with class DpopReplayShard, the nonce secret, and a ' +
      'warning for replay "isolate"',
    async () => {
      const dpop = (replay: unknown) => ({
        issuers: [{ ...goodConfig.issuers[0], dpop: 'required' }],
        dpop: { replay, nonceSecretBinding: 'DPOP_NONCE' },
      });
      const missing = await check(project({ 'w.toml': toml(dpop({ durableObject: 'DPOP_REPLAY' })) }), 'w.toml');
      expect(missing.errors[0]).toMatch(
        new RegExp(
          String.raw`dpop\.replay\.durableObject: no \[\[durable_objects\.bindings\]\] ` +
            String.raw`named DPOP_REPLAY with class_name = "DpopReplayShard"`,
        ),
      );
      const bound =
        '[[durable_objects.bindings]]\nname = "DPOP_REPLAY"\nclass_name = ' +
        '"DpopReplayShard"\n[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["DpopReplayShard"]\n';
      const ok = await check(project({ 'w.toml': toml(dpop({ durableObject: 'DPOP_REPLAY' }), bound) }), 'w.toml');
      expect(ok.ok).toBe(true);
      expect(ok.notes.join('\n')).toMatch(/secrets the guard reads .*DPOP_NONCE/);
      expect(ok.notes.join('\n')).not.toMatch(/dpop\.replay is "isolate"/);
      const isolate = await check(project({ 'w.toml': toml(dpop('isolate')) }), 'w.toml');
      expect(isolate.ok).toBe(true);
      expect(isolate.notes.join('\n')).toMatch(
        /dpop\.replay is "isolate": .*a proof replayed to another isolate is accepted/,
      );
    },
  );

  it(
    'check_config_revocation_durable_object_binding: revocation needs its RevocationList binding in the ' +
      'Wrangler file; "isolate" is a warning',
    async () => {
      const revocation = {
        ...goodConfig,
        revocation: {
          path: '/__guard/revocations',
          secretBinding: 'REVOCATION_SECRET',
          store: { durableObject: 'REVOCATIONS' },
        },
      };
      const missing = await check(project({ 'w.toml': toml(revocation) }), 'w.toml');
      expect(missing.errors[0]).toMatch(
        new RegExp(
          String.raw`revocation\.store\.durableObject: no \[\[durable_objects\.bindings\]\] ` +
            String.raw`named REVOCATIONS with class_name = "RevocationList"`,
        ),
      );
      const wrongClass = '[[durable_objects.bindings]]\nname = "REVOCATIONS"\nclass_name = "Other"\n';
      expect((await check(project({ 'w.toml': toml(revocation, wrongClass) }), 'w.toml')).ok).toBe(false);
      const bound =
        '[[durable_objects.bindings]]\nname = "REVOCATIONS"\nclass_name = ' +
        '"RevocationList"\n\n[[migrations]]\ntag = "v1"\nnew_sqlite_classes = ["RevocationList"]\n';
      const ok = await check(project({ 'w.toml': toml(revocation, bound) }), 'w.toml');
      expect(ok.errors).toEqual([]);
      expect(ok.notes.join('\n')).toMatch(/secrets the guard reads.*REVOCATION_SECRET/);
      const isolate = await check(
        project({ 'w.toml': toml({ ...revocation, revocation: { ...revocation.revocation, store: 'isolate' } }) }),
        'w.toml',
      );
      expect(isolate.ok).toBe(true);
      expect(isolate.notes.join('\n')).toMatch(/revocation\.store is "isolate": each isolate keeps its own list/);
    },
  );

  it(
    "check_config_warns_issuer_audience_without_resource_id: a note, not an error, when an issuer's own " +
      'audience leaves out resource.id',
    async () => {
      const id = 'https://mcp.example.com/mcp';
      const own = await check(project({ 'w.toml': toml({ ...goodConfig, resource: { id } }) }), 'w.toml');
      expect(own.ok).toBe(true);
      expect(own.notes.join('\n')).toContain(`issuers[0].audience does not name resource.id (${id})`);
      const { audience: _, ...noAudience } = goodConfig.issuers[0]!;
      const byDefault = await check(project({ 'w.toml': toml({ issuers: [noAudience], resource: { id } }) }), 'w.toml');
      expect(byDefault.ok).toBe(true);
      expect(byDefault.notes.join('\n')).not.toContain('resource.id');
      const named = await check(
        project({
          'w.toml': toml({ issuers: [{ ...goodConfig.issuers[0], audience: ['api', id] }], resource: { id } }),
        }),
        'w.toml',
      );
      expect(named.notes.join('\n')).not.toContain('resource.id');
    },
  );

  it('positions: keyOffset finds the key in the chosen environment; positionAt counts from 1', () => {
    const text = '[vars]\nGUARD_CONFIG = "a"\n[env.x.vars]\nGUARD_CONFIG = "b"\n';
    expect(positionAt(text, keyOffset(text, 'GUARD_CONFIG')!, 'f')).toEqual({ file: 'f', line: 2, column: 1 });
    expect(positionAt(text, keyOffset(text, 'GUARD_CONFIG', 'x')!, 'f')).toEqual({ file: 'f', line: 4, column: 1 });
    const json = '{ "vars": { "GUARD_CONFIG": {} }, "env": { "x": { "vars": { "GUARD_CONFIG": {} } } } }';
    expect(keyOffset(json, 'GUARD_CONFIG')).toBe(json.indexOf('"GUARD_CONFIG"'));
    expect(keyOffset(json, 'GUARD_CONFIG', 'x')).toBe(json.lastIndexOf('"GUARD_CONFIG"'));
  });
});

/** A GUARD_CONFIG with one inline key per algorithm given, each an EdDSA or ES256 public JWK (optionally broken). */
function inlineKeyConfig(keys: { alg: 'ES256' | 'EdDSA'; broken?: boolean }[]) {
  return {
    issuers: keys.map(({ alg, broken }, i) => {
      const pair =
        alg === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
      const jwk = pair.publicKey.export({ format: 'jwk' }) as { x: string; y?: string };
      if (broken === true && alg === 'ES256') {
        // y's last bit flipped: off the curve (only the curve check finds it).
        const y = Buffer.from(jwk.y!, 'base64url');
        y[y.length - 1]! ^= 1;
        jwk.y = y.toString('base64url');
      } else if (broken === true) {
        // y = p: 32 bytes that are no Ed25519 point (only the core's import finds it).
        jwk.x = Buffer.concat([Buffer.from([0xed]), Buffer.alloc(30, 0xff), Buffer.from([0x7f])]).toString('base64url');
      }
      return {
        issuer: `https://id${i}.example.com`,
        audience: 'api',
        algorithms: [alg],
        jwks: { keys: [{ ...jwk, kid: `k${i}` }] },
      };
    }),
  };
}

describe('check_config_refuses_broken_inline_key', () => {
  it(
    'an inline key only its costly checks refuse (off-curve EC point, Ed25519 non-point) fails the check, one ' +
      'line each, no key bytes',
    async () => {
      const bad = inlineKeyConfig([
        { alg: 'ES256' },
        { alg: 'ES256', broken: true },
        { alg: 'EdDSA', broken: true },
        { alg: 'EdDSA' },
      ]);
      const dir = project({
        'wrangler.toml': toml(bad),
        'good.toml': toml(inlineKeyConfig([{ alg: 'ES256' }, { alg: 'EdDSA' }])),
      });
      const r = await check(dir, 'wrangler.toml');
      expect(r.ok).toBe(false);
      expect(r.errors).toHaveLength(2);
      expect(r.errors[0]).toMatch(
        new RegExp(
          String.raw`wrangler\.toml:\d+:\d+: GUARD_CONFIG issuers\[1\]\.jwks: ` +
            String.raw`key is malformed or unusable: EC point is not on the curve$`,
        ),
      );
      expect(r.errors[1]).toMatch(
        /GUARD_CONFIG issuers\[2\]\.jwks: key is malformed or unusable: not a valid Ed25519 public key$/,
      );
      for (const is of bad.issuers.slice(1, 3)) {
        const k = is.jwks.keys[0]! as { x: string; y?: string };
        for (const part of [k.x, k.y].filter((p): p is string => p !== undefined))
          expect(r.errors.join('\n')).not.toContain(part.slice(0, 12));
      }
      expect((await check(dir, 'good.toml')).errors).toEqual([]);
    },
  );

  it(
    'an inline set with no key that can verify (the guard ' + 'refuses it at start too, issue 33) fails the check',
    async () => {
      const config = inlineKeyConfig([{ alg: 'EdDSA' }]);
      (config.issuers[0]!.jwks.keys[0] as Record<string, unknown>).use = 'enc';
      const r = await check(project({ 'wrangler.toml': toml(config) }), 'wrangler.toml');
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0]).toMatch(
        /GUARD_CONFIG issuers\[0\]\.jwks: no key that EdDSA can use \(by kty, crv, alg, use and key_ops\)$/,
      );
    },
  );
});

describe('the edgejwt bin (built: dist/cli/edgejwt.js)', () => {
  const bin = join(root, 'dist/cli/edgejwt.js');
  const run = (cwd: string, ...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });

  it('exit 0 for a good file, 1 naming the setting, 2 for usage errors', () => {
    const dir = project({
      'wrangler.toml': toml(goodConfig),
      'bad.toml': toml({ ...goodConfig, rules: [{ pathPrefix: '/a', auth: 'maybe' }] }),
    });
    const ok = run(dir, 'check-config');
    expect(ok.stdout).toContain('ok: GUARD_CONFIG in wrangler.toml is valid');
    expect(ok.status).toBe(0);
    const bad = run(dir, 'check-config', 'bad.toml');
    expect(bad.status).toBe(1);
    // At the key inside GUARD_CONFIG (line 24), not at its first line (10); no repeat of the listed values.
    expect(bad.stderr).toMatch(
      /^error: bad\.toml:24:7: GUARD_CONFIG rules\[0\]\.auth: expected "required", "optional" or "none"\n/m,
    );
    expect(run(dir, 'check-config', '--bogus').status).toBe(2);
    expect(run(dir, 'check-config', 'missing.toml').status).toBe(2);
    expect(run(dir, 'check-config', '--env').status).toBe(2);
    expect(run(dir, 'frobnicate').status).toBe(2);
    expect(run(dir).status).toBe(2);
  });

  it('build_guard_is_gone: the command is unknown (usage), and check-config takes no --out', () => {
    const dir = project({ 'wrangler.toml': toml(goodConfig) });
    expect(run(dir, 'build-guard', '--out', 'out/entry.js').status).toBe(2);
    expect(existsSync(join(dir, 'out/entry.js'))).toBe(false);
    expect(run(dir, 'check-config', '--out', 'x.js').status).toBe(2);
  });

  it('--version prints the package version; --help the usage and the exit codes', () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    const v = run(root, '--version');
    expect([v.status, v.stdout.trim()]).toEqual([0, version]);
    for (const args of [['--help'], ['check-config', '--help']]) {
      const h = run(root, ...args);
      expect(h.status).toBe(0);
      expect(h.stdout).toMatch(/Exit codes:\n {2}0 .*\n {2}1 .*invalid.*\n {2}2 .*usage/);
    }
  });

  it('without Wrangler installed: exit 2 saying how to install it', () => {
    // The built package alone, outside any node_modules that holds wrangler.
    const dir = mkdtempSync(join(tmpdir(), 'edgejwt-nowrangler-'));
    cpSync(join(root, 'dist'), join(dir, 'dist'), { recursive: true });
    cpSync(join(root, 'package.json'), join(dir, 'package.json'));
    writeFileSync(join(dir, 'wrangler.toml'), toml(goodConfig));
    const r = spawnSync(process.execPath, [join(dir, 'dist/cli/edgejwt.js'), 'check-config'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('npm install -D wrangler');
  });
});

describe('npm run check-config (contributors: the command from the sources)', () => {
  it("checks the repository's wrangler.toml [env.dev] with exit 0, and a bad file with exit 1", () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [join(root, 'scripts/check-config.mjs'), ...args], { cwd: root, encoding: 'utf8' });
    const ok = run('--env', 'dev');
    expect(ok.stdout).toContain('ok: GUARD_CONFIG in wrangler.toml (env dev) is valid');
    expect(ok.status).toBe(0);
    const dir = project({ 'wrangler.toml': toml({ ...goodConfig, publicPaths: ['/static/**'] }) });
    const bad = run(join(dir, 'wrangler.toml'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('publicPaths[0]: only one * at the end is supported');
  });
});

describe('JSON Schema (src/worker/guard-config.schema.json)', () => {
  const keys = (o: { properties?: Record<string, unknown> } | undefined): string[] =>
    Object.keys(o?.properties ?? {}).sort();
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
    expect(keys(schema.properties.dpop)).toEqual([...CONFIG_KEYS.dpop].sort());
    expect(keys(schema.properties.revocation)).toEqual([...CONFIG_KEYS.revocation].sort());
  });

  it('lists exactly the supported algorithms', () => {
    const algs = (schema.$defs.issuer!.properties.algorithms as { oneOf: { enum?: string[] }[] }).oneOf[0]!.enum!;
    expect([...algs].sort()).toEqual([...SUPPORTED_ALGORITHMS].sort());
  });
});
