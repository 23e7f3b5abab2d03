// The one description of GUARD_CONFIG (src/worker/config-description.ts) against the
// parsers: every described setting is read (a wrong value is refused naming it), every
// name a parser accepts is described (any other name is refused), the generated key
// sets equal the description, and every setting that names a binding is in the list
// `edgejwt check-config` checks (src/worker/bindings.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bindingSettings, requiredBindings } from '../../src/worker/bindings.js';
import { CONFIG_KEYS, ConfigError, parseConfig } from '../../src/worker/config.js';
import { INTROSPECTION_KEYS } from '../../src/worker/config-keys.js';
import { SETTINGS, type Setting, type ValueType } from '../../src/worker/config-description.js';
import { CORE_KEYS, parseConfigWith } from '../../src/worker/config-core.js';
import { sectionKey } from '../../src/worker/section.js';
import { defaultStages } from '../../src/worker/stages/index.js';

type Json = Record<string, unknown>;

/** A configuration that uses every section, each with its required settings, and two issuers (one HS). */
function fullConfig(): Json {
  return {
    issuers: [
      {
        issuer: 'https://id.example.com',
        audience: 'api',
        algorithms: ['RS256'],
        jwksUrl: 'https://id.example.com/jwks',
        dpop: 'allowed',
        mtls: 'allowed',
        introspection: { endpoint: 'https://id.example.com/introspect', clientId: 'guard', secretBinding: 'AS_SECRET' },
      },
      { issuer: 'https://hs.example.com', audience: 'api', algorithms: ['HS256'], secretBinding: 'HS_KEY' },
    ],
    rules: [{ pathPrefix: '/admin/', scopes: ['admin'] }],
    cors: { allowOrigins: 'https://app.example.com' },
    cache: {},
    jwks: {},
    admin: { path: '/__guard/counters', secretBinding: 'ADMIN_SECRET' },
    originAssertion: { keyBinding: 'ASSERTION_KEY' },
    paths: {},
    dpop: { replay: { durableObject: 'DPOP_REPLAY' }, nonceSecretBinding: 'NONCE_KEY' },
    origin: { service: 'API' },
    revocation: {
      path: '/__guard/revocations',
      secretBinding: 'REVOCATION_SECRET',
      store: { durableObject: 'REVOCATIONS' },
    },
    resource: { id: 'https://api.example.com/mcp' },
  };
}

const acceptsString = (t: ValueType): boolean =>
  t.kind === 'string' ||
  t.kind === 'enum' ||
  (t.kind === 'const' && typeof t.value === 'string') ||
  t.kind === 'claimValue' ||
  (t.kind === 'oneOrMany' && acceptsString(t.item)) ||
  (t.kind === 'anyOf' && t.of.some(acceptsString));

/** A value of a JSON type the setting's type does not take: a fraction where strings are taken, else a string. */
const wrongFor = (t: ValueType): unknown => (acceptsString(t) ? 7.5 : 'not-this');

/** The concrete path of a described one, in fullConfig (its first list element; the HS issuer for secretBinding). */
function concrete(s: Setting): string {
  const first = s.path === 'issuers[].secretBinding' ? 1 : 0;
  return s.path.replace(/\[\]/g, `[${first}]`);
}

/** Sets `value` at a concrete path such as `issuers[1].secretBinding`. */
function setAt(config: Json, path: string, value: unknown): void {
  const parts = path.split('.').flatMap((p) => p.split(/\[(\d+)\]/).filter((x) => x !== ''));
  let here: Json = config;
  for (const p of parts.slice(0, -1)) here = here[p] as Json;
  here[parts.at(-1)!] = value;
}

/** Settings that exclude others in the same entry: the sibling is removed so the wrong value is what is refused. */
const EXCLUSIVE: Record<string, string[]> = {
  'issuers[].jwks': ['jwksUrl'],
  'issuers[].discovery': ['jwksUrl'],
  'issuers[].cloudflareAccess': ['jwksUrl', 'issuer'],
};

function refusal(config: Json): ConfigError {
  try {
    parseConfig(config);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('accepted');
}

describe('the config description (src/worker/config-description.ts)', () => {
  it('fullConfig parses: every section in it is valid', () => {
    expect(() => parseConfig(fullConfig())).not.toThrow();
  });

  // $schema is the one setting the guard ignores by design (editors read it).
  it.each(SETTINGS.filter((s) => s.path !== '$schema').map((s) => [s.path, s] as const))(
    'every_described_setting_is_parsed: %s',
    (_, s) => {
      const config = fullConfig();
      const at = concrete(s);
      for (const sibling of EXCLUSIVE[s.path] ?? []) setAt(config, at.replace(/[^.]+$/, sibling), undefined);
      setAt(config, at, wrongFor(s.type));
      const e = refusal(config);
      expect(
        e.setting === at || e.setting.startsWith(`${at}.`) || e.setting.startsWith(`${at}[`),
        `${at} refused as ${e.setting}: ${e.message}`,
      ).toBe(true);
    },
  );

  it('every_parser_accepted_setting_is_described: any other name is refused, object by object', () => {
    const objects: [(c: Json) => Json, ReadonlySet<string>][] = [
      [(c) => c, CONFIG_KEYS.top],
      [(c) => (c.issuers as Json[])[0]!, CONFIG_KEYS.issuer],
      [(c) => (c.rules as Json[])[0]!, CONFIG_KEYS.rule],
      [(c) => c.cors as Json, CONFIG_KEYS.cors],
      [(c) => c.cache as Json, CONFIG_KEYS.cache],
      [(c) => c.jwks as Json, CONFIG_KEYS.jwks],
      [(c) => c.admin as Json, CONFIG_KEYS.admin],
      [(c) => c.originAssertion as Json, CONFIG_KEYS.originAssertion],
      [(c) => c.paths as Json, CONFIG_KEYS.paths],
      [(c) => c.dpop as Json, CONFIG_KEYS.dpop],
      [(c) => c.revocation as Json, CONFIG_KEYS.revocation],
      [(c) => (c.issuers as { introspection: Json }[])[0]!.introspection, INTROSPECTION_KEYS],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...objects),
        fc.string({ minLength: 1, maxLength: 12 }),
        ([objectIn, known], name) => {
          fc.pre(!known.has(name) && name !== '__proto__');
          const config = fullConfig();
          Object.defineProperty(objectIn(config), name, {
            value: 1,
            enumerable: true,
            writable: true,
            configurable: true,
          });
          const e = refusal(config);
          expect(e.message).toContain('unknown setting');
        },
      ),
      { numRuns: 300 },
    );
  });

  it("the generated key sets (src/worker/config-keys.ts) are the description's", () => {
    const described = (prefix: string): string[] =>
      SETTINGS.filter((s) => s.path.startsWith(prefix) && !s.path.slice(prefix.length).includes('.')).map((s) =>
        s.path.slice(prefix.length),
      );
    expect([...CONFIG_KEYS.top]).toEqual(SETTINGS.filter((s) => !s.path.includes('.')).map((s) => s.path));
    expect([...CONFIG_KEYS.issuer]).toEqual(described('issuers[].'));
    expect([...CONFIG_KEYS.rule]).toEqual(described('rules[].'));
    for (const k of ['cors', 'cache', 'jwks', 'admin', 'originAssertion', 'paths', 'dpop'] as const)
      expect([...CONFIG_KEYS[k]]).toEqual(described(`${k}.`));
  });

  it('bindings_list_covers_every_binding_setting (originAssertion.keyBinding included)', () => {
    const config = fullConfig();
    const named = bindingSettings();
    expect(named.map((b) => b.path).sort()).toEqual([
      'admin.secretBinding',
      'dpop.nonceSecretBinding',
      'dpop.replay.durableObject',
      'issuers[].introspection.secretBinding',
      'issuers[].secretBinding',
      'origin.service',
      'originAssertion.keyBinding',
      'revocation.secretBinding',
      'revocation.store.durableObject',
    ]);
    for (const [i, b] of named.entries()) setAt(config, concrete({ path: b.path } as Setting), `BINDING_${i}`);
    const needed = requiredBindings(parseConfig(config), JSON.stringify(config));
    const all = new Map<string, string>([
      ...needed.secrets,
      ...needed.services.map((s) => [s.binding, s.setting] as [string, string]),
      ...needed.durableObjects.map((d) => [d.binding, d.setting] as [string, string]),
    ]);
    expect(needed.durableObjects.find((d) => d.setting === 'dpop.replay.durableObject')?.className).toBe(
      'DpopReplayShard',
    );
    expect(needed.durableObjects.find((d) => d.setting === 'revocation.store.durableObject')?.className).toBe(
      'RevocationList',
    );
    for (const [i, b] of named.entries())
      expect(all.get(`BINDING_${i}`), b.path).toBe(concrete({ path: b.path } as Setting));
    expect(needed.secrets.get('CACHE_KEY')).toBe('CACHE_KEY');
    expect(needed.kv.map((k) => k.binding)).toEqual(['JWKS_CACHE']);
  });

  it('every_top_level_name_is_the_cores_or_a_stages_section: each section is keyed by its stage and described', () => {
    const sections = defaultStages.flatMap((s) => (s.section === undefined ? [] : [[s.name, s.section.key.key]]));
    // A section's key is its stage's name: a section set without its stage needs the stage of that name.
    for (const [name, key] of sections) expect(key).toBe(name);
    const top = SETTINGS.filter((s) => !s.path.includes('.') && !s.path.includes('[')).map((s) => s.path);
    expect([...CORE_KEYS, ...sections.map(([, key]) => key)].sort()).toEqual([...top].sort());
    expect([...CONFIG_KEYS.top].sort()).toEqual([...top].sort());
  });

  it('section_parser_never_reads_object_prototype_members', () => {
    // A section's parser gets what GUARD_CONFIG itself sets under its key: never an inherited member.
    const seen: unknown[] = [];
    const stage = {
      section: {
        key: sectionKey('constructor'),
        after: 'GUARD_CONFIG' as const,
        parse: (v: unknown) => {
          seen.push(v);
          return undefined;
        },
      },
    };
    const issuers = [{ issuer: 'https://i.example', audience: 'api', algorithms: ['HS256'], secretBinding: 'K' }];
    const config = parseConfigWith({ issuers }, [stage]);
    expect(seen).toEqual([undefined]);
    expect(config.sectionsSet).toEqual([]);
  });
});
