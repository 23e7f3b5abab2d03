// The compiled entry's config (edgejwt build-guard) is the checked config written as a
// literal: evaluated, it must equal what parseConfig gives for the same GUARD_CONFIG,
// Sets, Maps, undefined members and member order included, over generated configs.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardEntry } from '../../src/cli/guard-entry.js';
import { configLiteral } from '../../src/worker/config-literal.js';
import { parseConfig, ConfigError } from '../../src/worker/config.js';
import { featuresFor } from '../../src/worker/features/registry.js';
import { SUPPORTED_ALGORITHMS, algSpec } from '../../src/algorithms.js';
import { coreFamily, usesWasmCore } from '../../src/worker/self-test.js';
import { selfTestNeeded, selfTestNeededFor } from '../../src/worker/self-test-needed.js';

const evaluate = (src: string): unknown => new Function(`return (${src});`)() as unknown;

const ISS = fc.constantFrom('https://a.example.com', 'https://b.example.com', 'issuer-c');
const EC_KEY = { kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0', kid: 'ec-1' };
const algs = fc.subarray(['HS256', 'HS384', 'RS256', 'ES256', 'EdDSA', 'PS256'], { minLength: 1 });
const words = fc.array(fc.stringMatching(/^[a-z][a-z0-9:_-]{0,8}$/), { maxLength: 3 });
const issuer = fc.record(
  {
    issuer: fc.oneof(ISS, fc.uniqueArray(ISS, { minLength: 1, maxLength: 2 })),
    audience: fc.oneof(fc.constant('api'), fc.constant(['api', 'web'])),
    typ: fc.constant('JWT'),
    maxTokenAge: fc.integer({ min: 1, max: 86_400 }),
    claims: fc.dictionary(fc.constantFrom('azp', 'tenant', 'role'), fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean()), { maxKeys: 2 }),
  },
  { requiredKeys: ['issuer', 'audience'] },
);
const source = fc.oneof(
  fc.constant({ secretBinding: 'HS_KEY' }),
  fc.constant({ jwksUrl: 'https://keys.example.com/jwks' }),
  fc.constant({ jwks: { keys: [EC_KEY] } }),
);
const rule = fc.record(
  {
    pathPrefix: fc.constantFrom('/', '/api/', '/admin/', '/files/'),
    methods: fc.subarray(['GET', 'post', 'PUT', 'DELETE'], { minLength: 1 }),
    auth: fc.constantFrom('required', 'optional', 'none'),
    scopes: words.filter((w) => w.length > 0),
  },
  { requiredKeys: ['pathPrefix', 'auth'] },
).map((r) => (r.auth === 'none' ? { pathPrefix: r.pathPrefix, auth: r.auth, ...(r.methods === undefined ? {} : { methods: r.methods }) } : r));
function algorithmsFor(src: object, a: string[]): string[] {
  if ('secretBinding' in src) return ['HS256'];
  const asymmetric = a.filter((x) => !x.startsWith('HS'));
  if ('jwks' in src) return asymmetric.includes('ES256') ? asymmetric : [...asymmetric, 'ES256'];
  return asymmetric.length > 0 ? asymmetric : ['RS256'];
}
const rawConfig = fc.record(
  {
    issuers: fc.array(fc.tuple(issuer, source, algs), { minLength: 1, maxLength: 3 }),
    publicPaths: fc.subarray(['/health', '/public/*', '/docs']),
    rules: fc.array(rule, { maxLength: 3 }),
    tokenSources: fc.constantFrom([{ header: 'Authorization' }], [{ header: 'X-Token' }, { cookie: 'session' }]),
    forwardClaims: fc.constantFrom({ sub: 'X-Auth-Sub' }, { sub: 'X-Auth-Sub', scope: 'X-Auth-Scope' }),
    forwardPayload: fc.constant('X-Jwt-Payload'),
    forwardToken: fc.boolean(),
    cors: fc.oneof(fc.record({ allowOrigins: fc.constant('*'), maxAge: fc.integer({ min: 0, max: 86_400 }) }, { requiredKeys: ['allowOrigins'] }), fc.record({ allowOrigins: fc.constant(['https://app.example.com']), credentials: fc.boolean() }, { requiredKeys: ['allowOrigins'] })),
    origin: fc.constantFrom('builtin:echo', 'https://origin.example.com', { service: 'API' }),
    clockTolerance: fc.integer({ min: 0, max: 600 }),
    realm: fc.constantFrom('edgejwt', 'api gw'),
    cache: fc.record({ verify: fc.constantFrom(true, false, 'all'), jwks: fc.boolean(), l1Max: fc.integer({ min: 0, max: 5000 }), verifyAdmission: fc.constantFrom('seen-twice', 'always') }, { requiredKeys: [] }),
    jwks: fc.record({ timeoutMs: fc.integer({ min: 100, max: 30_000 }), cooldownMs: fc.integer({ min: 0, max: 60_000 }) }, { requiredKeys: [] }),
    admin: fc.constant({ path: '/__guard', secretBinding: 'ADMIN_SECRET' }),
    originAssertion: fc.constant({ keyBinding: 'ASSERTION_KEY', claims: ['sub'] }),
    paths: fc.record({ escapedSlashes: fc.constantFrom('reject', 'decode'), caseSensitive: fc.boolean(), forward: fc.constantFrom('canonical', 'received') }, { requiredKeys: [] }),
  },
  { requiredKeys: ['issuers'] },
).map(({ issuers, ...rest }) => ({
  ...rest,
  // HS* only with a secret, and a secret only with HS*; a key set only with asymmetric algorithms,
  // and the inline set (one P-256 key) with ES256 among them, else no key fits and the config is refused.
  // Each entry its own issuer names (a name listed twice is refused).
  issuers: issuers.map(([is, src, a], i) => ({ ...is, issuer: Array.isArray(is.issuer) ? is.issuer.map((n) => `${n}/${i}`) : `${is.issuer}/${i}`, ...src, algorithms: algorithmsFor(src, a) })),
}));

describe('configLiteral (the compiled entry\'s config)', () => {
  it('compiled_config_equals_parsed: parseConfig(x) equals the literal of parseConfig(x) evaluated', () => {
    let parsed = 0;
    const why: string[] = [];
    fc.assert(
      fc.property(rawConfig, (raw) => {
        let config;
        try {
          config = parseConfig(raw);
        } catch (e) {
          // A generated combination the parser refuses: nothing to compile (counted below).
          if (e instanceof ConfigError) return void why.push(e.message);
          throw e;
        }
        parsed++;
        const back = evaluate(configLiteral(config));
        expect(back).toStrictEqual(config);
        // Member order too: it is the order the guard reads and the order errors name.
        expect(JSON.stringify(back, (_, v: unknown) => (v instanceof Set ? [...v] : v))).toBe(JSON.stringify(config, (_, v: unknown) => (v instanceof Set ? [...v] : v)));
      }),
      { numRuns: 300 },
    );
    // Most generated configs must parse, or the property says little.
    expect(parsed, [...new Set(why)].slice(0, 8).join('\n')).toBeGreaterThan(150);
  });

  it('holds for strings a literal could break on', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string(), (a, b) => {
        const v = { [a]: b, list: [a, b], set: new Set([a]), map: new Map([[a, b]]), none: undefined, zero: -0 };
        expect(evaluate(configLiteral(v))).toStrictEqual(v);
      }),
    );
    const proto = JSON.parse('{"__proto__": {"x": 1}}') as unknown;
    const back = evaluate(configLiteral(proto)) as object;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__']);
  });

  it('refuses what a parsed config never holds', () => {
    for (const v of [new Date(0), /x/, () => 1, Number.NaN, Infinity, new Uint8Array(1), Object.create(null) as object, 1n]) expect(() => configLiteral({ v })).toThrow(TypeError);
  });

  it('the entry imports exactly the features the config uses', () => {
    const base = { issuers: [{ issuer: 'https://a.example.com', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://a.example.com/jwks' }] };
    expect(guardEntry(base).features).toEqual(['kvTiers', 'remoteKeys', 'keySets']);
    expect(guardEntry({ ...base, cache: { jwks: false } }).features).toEqual(['remoteKeys', 'keySets']);
    expect(featuresFor(parseConfig({ issuers: [{ issuer: 'i', audience: 'api', algorithms: ['HS256'], secretBinding: 'K' }], cache: { verify: 'all' }, originAssertion: { keyBinding: 'A' } }))).toEqual(['kvTiers', 'originAssertion']);
    const code = guardEntry({ ...base, cache: { jwks: false } }).code;
    expect(code).toContain(`import { compiledWorker, remoteKeys, keySets } from "edgejwt/worker/compiled";`);
    expect(() => guardEntry({ issuers: [] })).toThrow(ConfigError);
  });

  it('compiled_entry_imports_core_stages_only_when_configured: cors, admin, rules/publicPaths and key sets are features too', () => {
    const hs = { issuers: [{ issuer: 'i', audience: 'api', algorithms: ['HS256'], secretBinding: 'K' }], cache: { jwks: false } };
    expect(guardEntry(hs).features).toEqual([]);
    expect(guardEntry({ ...hs, cors: { allowOrigins: ['https://app.example.com'] } }).features).toEqual(['cors']);
    expect(guardEntry({ ...hs, admin: { path: '/_guard', secretBinding: 'A' } }).features).toEqual(['admin']);
    expect(guardEntry({ ...hs, publicPaths: ['/health'] }).features).toEqual(['rules']);
    expect(guardEntry({ ...hs, rules: [{ pathPrefix: '/a/', scopes: ['a'] }] }).features).toEqual(['rules']);
    expect(guardEntry({ issuers: [{ issuer: 'i', audience: 'api', algorithms: ['ES256'], jwks: { keys: [EC_KEY] } }], cache: { jwks: false } }).features).toEqual(['keySets']);
  });

  it('compiled_entry_exports_bound_durable_objects: the classes a config binds, and only those, are exported by the entry', () => {
    const issuer = { issuer: 'https://a.example.com', audience: 'api', algorithms: ['ES256'], jwksUrl: 'https://a.example.com/jwks', dpop: 'required' };
    const revocation = { path: '/__guard/revocations', secretBinding: 'REVOCATION_SECRET' };
    const both = guardEntry({ issuers: [issuer], cache: { jwks: false }, dpop: { replay: { durableObject: 'DPOP_REPLAY' } }, revocation: { ...revocation, store: { durableObject: 'REVOCATIONS' } } });
    expect(both.features).toEqual(['remoteKeys', 'dpop', 'revocation', 'keySets']);
    expect(both.code).toContain('export { DpopReplayShard, RevocationList } from "edgejwt/worker/compiled";');
    const isolate = guardEntry({ issuers: [issuer], cache: { jwks: false }, dpop: { replay: 'isolate' }, revocation: { ...revocation, store: 'isolate' } });
    expect(isolate.code).not.toMatch(/DpopReplayShard|RevocationList/);
  });

  it('self_test_kept_unless_config_names_no_wasm_algorithm: only a config listing RS/PS/ES alone skips it', () => {
    const rs = { issuers: [{ issuer: 'a', audience: 'api', algorithms: ['RS256', 'ES256'] }, { issuer: 'b', audience: 'api', algorithms: 'PS256' }] };
    expect(selfTestNeeded(rs)).toBe(false);
    expect(selfTestNeeded(JSON.stringify(rs))).toBe(false);
    expect(selfTestNeededFor(undefined, { GUARD_CONFIG: rs })).toBe(false);
    // Anything the early read cannot be sure of keeps the self-test.
    for (const raw of [
      undefined, '', 'not json', '[]', { issuers: [] }, { issuers: 'x' },
      { issuers: [...rs.issuers, { issuer: 'c', audience: 'api', algorithms: ['HS256'] }] },
      { issuers: [...rs.issuers, { issuer: 'c', audience: 'api', algorithms: 'EdDSA' }] },
      { issuers: [...rs.issuers, { issuer: 'c', audience: 'api' }] },
      { issuers: [{ algorithms: [] }] }, { issuers: [{ algorithms: ['RS256', 7] }] }, { issuers: [null] },
    ]) expect(selfTestNeeded(raw), JSON.stringify(raw)).toBe(true);
    // A config function is not called early: its guard keeps the self-test.
    expect(selfTestNeededFor(() => rs, {})).toBe(true);
  });

  it('the self-test runs only for configs on the Wasm core', () => {
    expect(usesWasmCore(['RS256', 'ES256', 'PS256'])).toBe(false);
    expect(usesWasmCore(['RS256', 'EdDSA'])).toBe(true);
    expect(usesWasmCore(['HS512'])).toBe(true);
  });

  it('core_family_matches_algorithm_table: an algorithm is the Wasm core\'s exactly when the table says so, Ed25519 under both names', () => {
    for (const a of SUPPORTED_ALGORITHMS) expect(coreFamily(a) !== undefined, a).toBe(algSpec(a)!.wasm);
    // A config of Ed25519 (the fully specified name) issuers runs on the core: its guard keeps the self-test.
    expect(usesWasmCore(['Ed25519'])).toBe(true);
    expect(selfTestNeeded({ issuers: [{ issuer: 'a', audience: 'api', algorithms: ['Ed25519'] }] })).toBe(true);
  });
});
