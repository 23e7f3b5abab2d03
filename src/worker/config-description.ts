// GUARD_CONFIG, described once. Everything else about the settings is generated from
// this list by `npm run gen` (scripts/gen-config.mjs) and checked by `npm run check:generated`:
//   src/worker/guard-config.schema.json   the JSON Schema for editors
//   src/worker/config-input.ts            GuardConfigInput and the other input types
//   src/worker/config-keys.ts             the names each parser accepts (unknown ones are refused)
//   docs/deploy.md                        the settings table (between its config-table markers)
// and src/worker/bindings.ts reads the `binding` marks below (edgejwt check-config).
//
// To add a setting:
//   1. Add one entry to SETTINGS (or, for a stage's own section, to its stages/<name>/settings.ts,
//      which SETTINGS spreads in its place), beside its siblings: `path` (`issuers[].dpop`, `dpop.replay`),
//      `type` (see ValueType), `doc` (one line; markdown links to docs/deploy.md anchors are
//      fine), `default` if it has one, `required: true` if it must be given, and
//      `binding: 'secret' | 'kv' | 'service' | 'durableObject'` if its value names a Worker binding.
//      A new object section is an entry of type `{ kind: 'section' }` followed by its children.
//   2. `npm run gen`, then parse it in the stage's own module (the key set is already there:
//      import it from ./config-keys.js), with a test. A new top-level section is parsed by its
//      stage's `section` (./section.ts), and its settings.ts is spread below where the table lists it.
//   test/node/config-description.test.ts fails until the parser reads every described setting.
//
// Data only: the guard never imports this module (the parsers import the generated
// ./config-keys.ts), so it costs the guard nothing at startup.

export type { BindingKind, ValueType, Field, Setting, FixedBinding } from './config-description-types.js';
import type { FixedBinding, Setting, ValueType } from './config-description-types.js';
import { ALGORITHMS, CLAIMS, HEADER, NAME, NAMES, PATH } from './config-description-parts.js';
import { RULES_SETTINGS } from './stages/route/settings.js';
import { CORS_SETTINGS } from './stages/cors/settings.js';
import { ADMIN_SETTINGS } from './stages/admin/settings.js';
import { ORIGIN_ASSERTION_SETTINGS } from './stages/origin-assertion/settings.js';
import { DPOP_SETTINGS } from './stages/dpop/settings.js';
import { REVOCATION_SETTINGS } from './stages/revocation/settings.js';
import { RESOURCE_SETTINGS } from './stages/resource/settings.js';
import { PATHS_SETTINGS } from './stages/path/settings.js';

/** The schema's header (the root object itself is described by the entries with no dot). */
export const ROOT = {
  id: 'https://edgejwt.dev/guard-config.schema.json',
  title: 'edgejwt guard configuration (GUARD_CONFIG)',
  doc:
    "The route guard's configuration; docs/deploy.md explains every setting. The guard checks more than this " +
    'schema can (e.g. HS algorithms only with secretBinding); `npx edgejwt check-config` runs those checks.',
  tsName: 'GuardConfigInput',
  tsDoc: "The guard's configuration as written in GUARD_CONFIG or passed to createGuard.",
  tsExample: [
    'const config: GuardConfigInput = {',
    '  issuers: [',
    '    {',
    "      issuer: 'https://id.example.com',",
    "      audience: 'api',",
    "      algorithms: ['RS256'],",
    "      jwksUrl: 'https://id.example.com/jwks',",
    '    },',
    '  ],',
    "  rules: [{ pathPrefix: '/admin/', scopes: ['admin'] }],",
    '};',
  ],
  keys: 'TOP_KEYS',
} as const;

/** Every setting, in the order the table lists them; a section's children follow it. */
export const SETTINGS: readonly Setting[] = [
  {
    path: '$schema',
    type: { kind: 'string' },
    doc:
      'Where editors find the JSON Schema (`./node_modules/edgejwt/dist/worker/guard-config.schema.json`); the ' +
      'guard ignores it.',
  },

  {
    path: 'issuers',
    type: {
      kind: 'list',
      nonEmpty: true,
      item: {
        kind: 'section',
        def: 'issuer',
        tsName: 'IssuerInput',
        keys: 'ISSUER_KEYS',
        doc: 'One trusted issuer: who signs, for whom, with which algorithms, and where its keys are.',
        // Not an anyOf on audience/claims: with a top-level `resource` an issuer may set neither
        // (resource.id is then its audience).
        schema: {
          description:
            'Needs audience or claims (or a top-level resource, whose id is then its audience); at most one ' +
            'of jwks, jwksUrl, secretBinding, discovery (none: OIDC discovery).',
        },
      },
    },
    required: true,
    doc:
      'The trusted issuers: who signs, for whom, with which algorithms, and where the keys are; each needs ' +
      '`audience` or `claims` and has at most one key source.',
  },
  {
    path: 'issuers[].issuer',
    type: NAMES,
    doc: 'The exact `iss`; a list accepts several spellings (Google: with and without https://).',
  },
  {
    path: 'issuers[].audience',
    type: NAMES,
    doc:
      'The `aud` a token must hold; required unless `claims` binds tokens to this API ([Audience ' +
      'alternatives](#audience-alternatives)) or `resource` is set (its `id` is then the audience; your own ' +
      'replaces it).',
  },
  {
    path: 'issuers[].claims',
    type: CLAIMS,
    doc:
      'Claim values every token must carry, a value or a list of accepted values (Cognito access tokens: `{ ' +
      '"client_id": ["…"], "token_use": "access" }`).',
  },
  {
    path: 'issuers[].algorithms',
    type: { kind: 'oneOrMany', item: ALGORITHMS },
    ts: 'OneOrMany<string>',
    doc: 'The algorithms accepted (an allow-list); key sets never verify HS algorithms.',
  },
  {
    path: 'issuers[].typ',
    type: NAME,
    doc:
      'Required header `typ`: `at+jwt` where the provider marks its access tokens, so its ID tokens are ' +
      'refused ([Token type and age](#token-type-and-age)).',
  },
  {
    path: 'issuers[].maxTokenAge',
    type: { kind: 'integer', min: 1, max: 31_536_000 },
    doc:
      'Seconds: refuse tokens this old by `iat` (at `iat` + maxTokenAge, as at `exp`); `iat` is then required ' +
      'and never later than now + clockTolerance.',
  },
  {
    path: 'issuers[].profile',
    type: { kind: 'enum', values: ['at+jwt'] },
    doc:
      'RFC 9068 access tokens: `typ` `at+jwt` and `iss`, `exp`, `aud`, `sub`, `client_id`, `iat`, `jti` all ' +
      'present; needs `audience` ([Token type and age](#token-type-and-age)).',
  },
  {
    path: 'issuers[].dpop',
    type: { kind: 'enum', values: ['required', 'allowed'] },
    doc:
      'RFC 9449 DPoP: `required` takes only DPoP-bound tokens (`cnf.jkt`) sent as `Authorization: DPoP` with ' +
      'one valid `DPoP` proof; `allowed` also takes unbound bearer tokens. Needs the top-level `dpop` section ' +
      '([DPoP](#dpop-sender-constrained-tokens)).',
  },
  {
    path: 'issuers[].mtls',
    type: { kind: 'enum', values: ['required', 'allowed'] },
    doc:
      'RFC 8705: `cnf["x5t#S256"]` must name the client certificate Cloudflare verified for this connection ' +
      '(`request.cf.tlsClientAuth`); `required`: every token bound, `allowed`: unbound tokens pass ' +
      '([Certificate-bound tokens](#certificate-bound-tokens-mtls-rfc-8705)).',
  },
  {
    path: 'issuers[].jwks',
    type: {
      kind: 'object',
      open: true,
      fields: [{ name: 'keys', type: { kind: 'list', nonEmpty: true, item: { kind: 'jsonObject' } }, required: true }],
    },
    ts: '{ keys: Record<string, unknown>[] }',
    doc:
      'Inline public keys (`{ "keys": [...] }`); unless one fits `algorithms` by kty, crv, alg, use and ' +
      'key_ops, the guard does not start.',
  },
  {
    path: 'issuers[].jwksUrl',
    type: { kind: 'string', format: 'uri' },
    doc: 'Where the key set is fetched: https (http only on loopback).',
  },
  {
    path: 'issuers[].secretBinding',
    type: NAME,
    binding: 'secret',
    doc: 'Name of a secret binding holding an HS key (base64url); HS algorithms only.',
  },
  {
    path: 'issuers[].discovery',
    type: { kind: 'const', value: true },
    doc:
      'OIDC discovery from `<issuer>/.well-known/openid-configuration` (also the default with no key source, ' +
      'see [OIDC discovery](#oidc-discovery)).',
  },
  {
    path: 'issuers[].introspection',
    type: {
      kind: 'section',
      tsName: 'IntrospectionInput',
      keys: 'INTROSPECTION_KEYS',
      doc: "An issuer's `introspection` section: where its opaque tokens are asked about (RFC 7662).",
    },
    doc:
      "Opaque (non-JWT) tokens of this issuer are introspected (RFC 7662) and their answer checked as a JWT's " +
      'claims; at most one issuer may set it ([Opaque tokens](#opaque-tokens)).',
  },
  {
    path: 'issuers[].introspection.endpoint',
    type: { kind: 'string', format: 'uri' },
    required: true,
    doc:
      'The introspection endpoint: https (http only on loopback), no fragment; never taken from a request or a ' +
      'discovery document.',
  },
  {
    path: 'issuers[].introspection.clientId',
    type: NAME,
    required: true,
    doc: "The guard's own client id at the authorization server (`client_secret_basic`).",
  },
  {
    path: 'issuers[].introspection.secretBinding',
    type: NAME,
    required: true,
    binding: 'secret',
    doc: "Name of the secret holding the guard's client secret; not set: the guard does not start.",
  },
  {
    path: 'issuers[].introspection.cacheMs',
    type: { kind: 'integer', min: 0, max: 3_600_000 },
    default: 30_000,
    doc:
      'Longest time an active answer is reused (never past its `exp`): how long a revoked token may still ' +
      'pass; 0: ask every time.',
  },
  {
    path: 'issuers[].introspection.timeoutMs',
    type: { kind: 'integer', min: 100, max: 30_000 },
    default: 3000,
    doc: 'One deadline over the whole exchange (request and answer); past it: 503.',
  },
  {
    path: 'issuers[].cloudflareAccess',
    type: {
      kind: 'object',
      fields: [
        {
          name: 'team',
          type: { kind: 'string', pattern: '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$' },
          required: true,
        },
      ],
    },
    doc:
      '[Cloudflare Access](#cloudflare-access): sets issuer, JWKS URL and RS256 from the team name; `audience` ' +
      'is the AUD tag.',
  },

  {
    path: 'publicPaths',
    type: { kind: 'list', item: PATH },
    doc:
      'Exact paths, or prefixes ending in one `*` (`/static/*`), in canonical form; no token needed. A path is ' +
      'public only if every reading of it is ([Request paths](#request-paths)).',
  },

  ...RULES_SETTINGS,

  {
    path: 'tokenSources',
    type: {
      kind: 'list',
      nonEmpty: true,
      item: {
        kind: 'anyOf',
        of: [
          { kind: 'object', fields: [{ name: 'header', type: HEADER, required: true }] },
          { kind: 'object', fields: [{ name: 'cookie', type: HEADER, required: true }] },
        ],
      },
    },
    doc:
      'Where the token is read, in order; the first source present is used. `Authorization` needs the `Bearer` ' +
      'scheme; another header may carry the bare token (default: `Authorization`).',
  },
  {
    path: 'forwardClaims',
    type: { kind: 'map', value: HEADER },
    default: { sub: 'X-Auth-Sub' },
    doc:
      'Claim → request header. Client-sent copies of these headers are removed on every request in every ' +
      'spelling an origin may read as the same name (`X_Auth_Sub`); a claim value outside printable ASCII (or ' +
      'over 4 KiB) is a 401.',
  },
  {
    path: 'forwardPayload',
    type: HEADER,
    doc:
      'A header that carries base64url(JSON) of the verified payload ([Forwarding](#forwarding)); client-sent ' +
      'copies are removed.',
  },
  {
    path: 'forwardToken',
    type: { kind: 'boolean' },
    default: true,
    doc: '`false` drops the token header and cookie from the forwarded request.',
  },

  ...CORS_SETTINGS,

  {
    path: 'origin',
    type: {
      kind: 'anyOf',
      of: [
        { kind: 'string', note: 'https URL (http only for localhost), or builtin:echo' },
        {
          kind: 'object',
          fields: [
            {
              name: 'service',
              type: { kind: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
              required: true,
              binding: 'service',
            },
          ],
        },
      ],
    },
    doc:
      "Forward here instead of the route's own origin: a URL (its scheme, host and port always; the path and " +
      'query are set on a copy, never resolved), `builtin:echo`, or `{ "service": "API" }` ([service ' +
      'binding](#service-binding-origin)).',
  },
  {
    path: 'clockTolerance',
    type: { kind: 'integer', min: 0, max: 600 },
    default: 0,
    doc: 'Seconds of skew on `exp`/`nbf` (and `iat` under `maxTokenAge`).',
  },
  {
    path: 'realm',
    type: { kind: 'string', minLength: 1, pattern: '^[^"\\\\\\r\\n]*$' },
    default: 'edgejwt',
    doc: 'The `realm` in `WWW-Authenticate`.',
  },

  { path: 'cache', type: { kind: 'section', keys: 'CACHE_KEYS' }, doc: 'The verify and key-set caches.' },
  {
    path: 'cache.verify',
    type: {
      kind: 'anyOf',
      of: [{ kind: 'boolean' }, { kind: 'const', value: 'all' }, { kind: 'list', item: ALGORITHMS }],
    },
    ts: "boolean | 'all' | readonly string[]",
    default: false,
    doc:
      'Which verified tokens the KV verify cache keeps: `true` (ECDSA algorithms, chosen by measurement), ' +
      '`"all"`, or a list of algorithms.',
  },
  { path: 'cache.jwks', type: { kind: 'boolean' }, default: true, doc: 'Keep fetched key sets in KV.' },
  {
    path: 'cache.jwksColo',
    type: { kind: 'boolean' },
    default: true,
    doc:
      "Keep fetched key sets and discovery documents in this data centre's Cache API (sealed; needs " +
      'CACHE_KEY), so refetches are bounded per data centre ([Key sets per data ' +
      'centre](#key-sets-per-data-centre-the-cache-api-tier)).',
  },
  {
    path: 'cache.verifyTtl',
    type: { kind: 'integer', min: 60, max: 86_400 },
    default: 300,
    doc: 'Longest life of a KV verify entry, seconds.',
  },
  {
    path: 'cache.l1Max',
    type: { kind: 'integer', min: 0, max: 100_000 },
    default: 1000,
    doc: 'Entries in the per-isolate cache.',
  },
  {
    path: 'cache.kvTimeoutMs',
    type: { kind: 'integer', min: 1, max: 10_000 },
    default: 100,
    doc: 'A KV read slower than this is a miss.',
  },
  {
    path: 'cache.verifyAdmission',
    type: { kind: 'enum', values: ['seen-twice', 'always'] },
    default: 'seen-twice',
    doc:
      'When a verified token gets its KV entry: on its second sighting in an isolate (one-off tokens cost no ' +
      'KV write), or always on the first verify.',
  },
  {
    path: 'cache.verifyWritesPerMinute',
    type: { kind: 'integer', min: 1, max: 100_000 },
    default: 60,
    doc: 'KV verify-cache writes per isolate per minute; the rest are counted as `l2_write_over_budget`.',
  },

  {
    path: 'jwks',
    type: { kind: 'section', keys: 'JWKS_KEYS' },
    doc: 'Key-set and discovery fetches ([Key removal](#key-removal-how-long-a-dropped-key-keeps-working)).',
  },
  {
    path: 'jwks.timeoutMs',
    type: { kind: 'integer', min: 100, max: 30_000 },
    default: 3000,
    doc: 'One deadline over the whole key-set lookup (tiers, claim, discovery, fetch and body); past it: 503.',
  },
  {
    path: 'jwks.cooldownMs',
    type: { kind: 'integer', min: 0, max: 3_600_000 },
    default: 30_000,
    doc: 'Time between refetches caused by unknown `kid`s or failures.',
  },
  {
    path: 'jwks.maxAgeMs',
    type: { kind: 'number', min: 5000, max: 86_400_000 },
    default: 600_000,
    doc:
      'Longest a fetched key set is used before the issuer is asked again, whatever Cache-Control says (a ' +
      'response without it is kept this long); a removed key stops verifying, cached verdicts included, within ' +
      'this bound.',
  },
  {
    path: 'jwks.staleMs',
    type: { kind: 'integer', min: 0, max: 86_400_000 },
    default: 3_600_000,
    doc:
      'How long past its freshness a fetched key set still verifies while its issuer fails (a copy is kept in ' +
      'the Cache API and KV as long); after it the request is a 503, never a pass. 0: fail closed as soon as ' +
      'the set is stale and the issuer fails.',
  },

  ...ADMIN_SETTINGS,

  ...ORIGIN_ASSERTION_SETTINGS,

  ...DPOP_SETTINGS,

  ...REVOCATION_SETTINGS,

  ...RESOURCE_SETTINGS,

  ...PATHS_SETTINGS,
];

/** Bindings read by fixed names. */
export const FIXED_BINDINGS: readonly FixedBinding[] = [
  {
    binding: 'CACHE_KEY',
    kind: 'secret',
    setting: 'CACHE_KEY',
    doc: 'Seals what the guard writes to KV; without it the KV caches are off.',
  },
  {
    binding: 'JWKS_CACHE',
    kind: 'kv',
    setting: 'cache.jwks',
    doc: 'Fetched key sets (with CACHE_KEY set and cache.jwks on).',
  },
  {
    binding: 'VERIFY_CACHE',
    kind: 'kv',
    setting: 'cache.verify',
    doc: 'Verified tokens (with CACHE_KEY set and cache.verify on).',
  },
];
