// GUARD_CONFIG, described once. Everything else about the settings is generated from
// this list by `npm run gen` (scripts/gen-config.mjs) and checked by `npm run check:generated`:
//   src/worker/guard-config.schema.json   the JSON Schema for editors
//   src/worker/config-input.ts            GuardConfigInput and the other input types
//   src/worker/config-keys.ts             the names each parser accepts (unknown ones are refused)
//   docs/deploy.md                        the settings table (between its config-table markers)
// and src/worker/bindings.ts reads the `binding` marks below (edgejwt check-config).
//
// To add a setting:
//   1. Add one entry to SETTINGS, beside its siblings: `path` (`issuers[].dpop`, `dpop.replay`),
//      `type` (see ValueType), `doc` (one line; markdown links to docs/deploy.md anchors are
//      fine), `default` if it has one, `required: true` if it must be given, and
//      `binding: 'secret' | 'kv' | 'service' | 'durableObject'` if its value names a Worker binding.
//      A new object section is an entry of type `{ kind: 'section' }` followed by its children.
//   2. `npm run gen`, then parse it in the stage's own module (the key set is already there:
//      import it from ./config-keys.js), with a test.
//   test/node/config-description.test.ts fails until the parser reads every described setting.
//
// Data only: the guard never imports this module (the parsers import the generated
// ./config-keys.ts), so it costs the guard nothing at startup.

import { SUPPORTED_ALGORITHMS } from '../algorithms.js';

export type { BindingKind, ValueType, Field, Setting, FixedBinding } from './config-description-types.js';
import type { FixedBinding, Setting, ValueType } from './config-description-types.js';

const HTTP_TOKEN = "^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$";
const ALGORITHMS: ValueType = { kind: 'enum', values: SUPPORTED_ALGORITHMS };
const NAME: ValueType = { kind: 'string', minLength: 1 };
const NAMES: ValueType = { kind: 'oneOrMany', item: NAME };
const HEADER: ValueType = { kind: 'string', pattern: HTTP_TOKEN };
const PATH: ValueType = { kind: 'string', pattern: '^/' };
/** A store: a Durable Object binding of class `className`, or `"isolate"` (this isolate only). */
const storeOrIsolate = (className: string): ValueType => ({
  kind: 'anyOf',
  of: [
    { kind: 'const', value: 'isolate' },
    { kind: 'object', fields: [{ name: 'durableObject', type: NAME, required: true, binding: 'durableObject', className }] },
  ],
});
const CLAIMS: ValueType = { kind: 'map', value: { kind: 'oneOrMany', item: { kind: 'claimValue' } } };

/** The schema's header (the root object itself is described by the entries with no dot). */
export const ROOT = {
  id: 'https://edgejwt.dev/guard-config.schema.json',
  title: 'edgejwt guard configuration (GUARD_CONFIG)',
  doc: 'The route guard\'s configuration; docs/deploy.md explains every setting. The guard checks more than this schema can (e.g. HS algorithms only with secretBinding); `npx edgejwt check-config` runs those checks.',
  tsName: 'GuardConfigInput',
  tsDoc: 'The guard\'s configuration as written in GUARD_CONFIG or passed to createGuard.',
  tsExample: [
    'const config: GuardConfigInput = {',
    "  issuers: [{ issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example.com/jwks' }],",
    "  rules: [{ pathPrefix: '/admin/', scopes: ['admin'] }],",
    '};',
  ],
  keys: 'TOP_KEYS',
} as const;

/** Every setting, in the order the table lists them; a section's children follow it. */
export const SETTINGS: readonly Setting[] = [
  { path: '$schema', type: { kind: 'string' }, doc: 'Where editors find the JSON Schema (`./node_modules/edgejwt/dist/worker/guard-config.schema.json`); the guard ignores it.' },

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
        schema: { description: 'Needs audience or claims (or a top-level resource, whose id is then its audience); at most one of jwks, jwksUrl, secretBinding, discovery (none: OIDC discovery).' },
      },
    },
    required: true,
    doc: 'The trusted issuers: who signs, for whom, with which algorithms, and where the keys are; each needs `audience` or `claims` and has at most one key source.',
  },
  { path: 'issuers[].issuer', type: NAMES, doc: 'The exact `iss`; a list accepts several spellings (Google: with and without https://).' },
  { path: 'issuers[].audience', type: NAMES, doc: 'The `aud` a token must hold; required unless `claims` binds tokens to this API ([Audience alternatives](#audience-alternatives)) or `resource` is set (its `id` is then the audience; your own replaces it).' },
  { path: 'issuers[].claims', type: CLAIMS, doc: 'Claim values every token must carry, a value or a list of accepted values (Cognito access tokens: `{ "client_id": ["…"], "token_use": "access" }`).' },
  { path: 'issuers[].algorithms', type: { kind: 'oneOrMany', item: ALGORITHMS }, ts: 'OneOrMany<string>', doc: 'The algorithms accepted (an allow-list); key sets never verify HS algorithms.' },
  { path: 'issuers[].typ', type: NAME, doc: 'Required header `typ`: `at+jwt` where the provider marks its access tokens, so its ID tokens are refused ([Token type and age](#token-type-and-age)).' },
  { path: 'issuers[].maxTokenAge', type: { kind: 'integer', min: 1, max: 31_536_000 }, doc: 'Seconds: refuse tokens this old by `iat` (at `iat` + maxTokenAge, as at `exp`); `iat` is then required and never later than now + clockTolerance.' },
  { path: 'issuers[].profile', type: { kind: 'enum', values: ['at+jwt'] }, doc: 'RFC 9068 access tokens: `typ` `at+jwt` and `iss`, `exp`, `aud`, `sub`, `client_id`, `iat`, `jti` all present; needs `audience` ([Token type and age](#token-type-and-age)).' },
  { path: 'issuers[].dpop', type: { kind: 'enum', values: ['required', 'allowed'] }, doc: 'RFC 9449 DPoP: `required` takes only DPoP-bound tokens (`cnf.jkt`) sent as `Authorization: DPoP` with one valid `DPoP` proof; `allowed` also takes unbound bearer tokens. Needs the top-level `dpop` section ([DPoP](#dpop-sender-constrained-tokens)).' },
  { path: 'issuers[].mtls', type: { kind: 'enum', values: ['required', 'allowed'] }, doc: 'RFC 8705: `cnf["x5t#S256"]` must name the client certificate Cloudflare verified for this connection (`request.cf.tlsClientAuth`); `required`: every token bound, `allowed`: unbound tokens pass ([Certificate-bound tokens](#certificate-bound-tokens-mtls-rfc-8705)).' },
  {
    path: 'issuers[].jwks',
    type: { kind: 'object', open: true, fields: [{ name: 'keys', type: { kind: 'list', nonEmpty: true, item: { kind: 'jsonObject' } }, required: true }] },
    ts: '{ keys: Record<string, unknown>[] }',
    doc: 'Inline public keys (`{ "keys": [...] }`); unless one fits `algorithms` by kty, crv, alg, use and key_ops, the guard does not start.',
  },
  { path: 'issuers[].jwksUrl', type: { kind: 'string', format: 'uri' }, doc: 'Where the key set is fetched: https (http only on loopback).' },
  { path: 'issuers[].secretBinding', type: NAME, binding: 'secret', doc: 'Name of a secret binding holding an HS key (base64url); HS algorithms only.' },
  { path: 'issuers[].discovery', type: { kind: 'const', value: true }, doc: 'OIDC discovery from `<issuer>/.well-known/openid-configuration` (also the default with no key source, see [OIDC discovery](#oidc-discovery)).' },
  {
    path: 'issuers[].introspection',
    type: { kind: 'section', tsName: 'IntrospectionInput', keys: 'INTROSPECTION_KEYS', doc: 'An issuer\'s `introspection` section: where its opaque tokens are asked about (RFC 7662).' },
    doc: 'Opaque (non-JWT) tokens of this issuer are introspected (RFC 7662) and their answer checked as a JWT\'s claims; at most one issuer may set it ([Opaque tokens](#opaque-tokens)).',
  },
  { path: 'issuers[].introspection.endpoint', type: { kind: 'string', format: 'uri' }, required: true, doc: 'The introspection endpoint: https (http only on loopback), no fragment; never taken from a request or a discovery document.' },
  { path: 'issuers[].introspection.clientId', type: NAME, required: true, doc: 'The guard\'s own client id at the authorization server (`client_secret_basic`).' },
  { path: 'issuers[].introspection.secretBinding', type: NAME, required: true, binding: 'secret', doc: 'Name of the secret holding the guard\'s client secret; not set: the guard does not start.' },
  { path: 'issuers[].introspection.cacheMs', type: { kind: 'integer', min: 0, max: 3_600_000 }, default: 30_000, doc: 'Longest time an active answer is reused (never past its `exp`): how long a revoked token may still pass; 0: ask every time.' },
  { path: 'issuers[].introspection.timeoutMs', type: { kind: 'integer', min: 100, max: 30_000 }, default: 3000, doc: 'One deadline over the whole exchange (request and answer); past it: 503.' },
  {
    path: 'issuers[].cloudflareAccess',
    type: { kind: 'object', fields: [{ name: 'team', type: { kind: 'string', pattern: '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$' }, required: true }] },
    doc: '[Cloudflare Access](#cloudflare-access): sets issuer, JWKS URL and RS256 from the team name; `audience` is the AUD tag.',
  },

  { path: 'publicPaths', type: { kind: 'list', item: PATH }, doc: 'Exact paths, or prefixes ending in one `*` (`/static/*`), in canonical form; no token needed. A path is public only if every reading of it is ([Request paths](#request-paths)).' },

  { path: 'rules', type: { kind: 'list', item: { kind: 'section', def: 'rule', tsName: 'RuleInput', keys: 'RULE_KEYS', doc: 'A route rule: the first whose prefix and methods match decides.' } }, doc: 'Route rules: the **first** whose prefix and methods match decides ([Rules](#rules)).' },
  { path: 'rules[].pathPrefix', type: PATH, required: true, doc: 'A plain prefix in canonical form (no `*`); one ending in `/` also covers the path without it; letter case ignored by default.' },
  { path: 'rules[].methods', type: { kind: 'oneOrMany', item: HEADER }, doc: 'Only requests with these methods (default: all).' },
  { path: 'rules[].auth', type: { kind: 'enum', values: ['required', 'optional', 'none'] }, default: 'required', doc: '`optional`: no token is anonymous; `none`: no check.' },
  { path: 'rules[].issuers', type: NAMES, doc: 'Only tokens of these configured issuers.' },
  { path: 'rules[].audience', type: NAMES, doc: 'The token\'s `aud` must hold one of these.' },
  { path: 'rules[].scopes', type: { kind: 'oneOrMany', item: { kind: 'string', pattern: '^[^\\s"\\\\]+$' } }, doc: 'All required; read from `scope` (space-separated) or `scp`.' },
  { path: 'rules[].claims', type: CLAIMS, doc: 'A value or a list of accepted values per claim; an array claim matches if it contains one.' },
  { path: 'rules[].acr', type: { kind: 'oneOrMany', item: { kind: 'string', pattern: '^[!#-\\[\\]-~]+$' } }, doc: 'RFC 9470 step-up: the token\'s `acr` must be one of these, else 401 `insufficient_user_authentication` with `acr_values` ([Protect an MCP server](#protect-an-mcp-server)).' },
  { path: 'rules[].maxAge', type: { kind: 'integer', min: 0, max: 31_536_000 }, doc: 'RFC 9470 step-up: seconds since the token\'s `auth_time`, else 401 `insufficient_user_authentication` with `max_age`.' },

  {
    path: 'tokenSources',
    type: {
      kind: 'list',
      nonEmpty: true,
      item: { kind: 'anyOf', of: [{ kind: 'object', fields: [{ name: 'header', type: HEADER, required: true }] }, { kind: 'object', fields: [{ name: 'cookie', type: HEADER, required: true }] }] },
    },
    doc: 'Where the token is read, in order; the first source present is used. `Authorization` needs the `Bearer` scheme; another header may carry the bare token (default: `Authorization`).',
  },
  {
    path: 'forwardClaims',
    type: { kind: 'map', value: HEADER },
    default: { sub: 'X-Auth-Sub' },
    doc: 'Claim → request header. Client-sent copies of these headers are removed on every request in every spelling an origin may read as the same name (`X_Auth_Sub`); a claim value outside printable ASCII (or over 4 KiB) is a 401.',
  },
  { path: 'forwardPayload', type: HEADER, doc: 'A header that carries base64url(JSON) of the verified payload ([Forwarding](#forwarding)); client-sent copies are removed.' },
  { path: 'forwardToken', type: { kind: 'boolean' }, default: true, doc: '`false` drops the token header and cookie from the forwarded request.' },

  { path: 'cors', type: { kind: 'section', def: 'cors', tsName: 'CorsInput', keys: 'CORS_KEYS' }, doc: 'Answer CORS preflights and mark responses for these origins ([CORS](#cors)).' },
  { path: 'cors.allowOrigins', type: NAMES, required: true, doc: 'Origins allowed to call.' },
  { path: 'cors.allowMethods', type: { kind: 'oneOrMany', item: HEADER, emptyList: true }, doc: 'Methods a preflight may ask for.' },
  { path: 'cors.allowHeaders', type: { kind: 'oneOrMany', item: HEADER, emptyList: true }, doc: 'Request headers a preflight may ask for.' },
  { path: 'cors.exposeHeaders', type: { kind: 'oneOrMany', item: HEADER, emptyList: true }, doc: 'Response headers the browser shows the caller.' },
  { path: 'cors.maxAge', type: { kind: 'integer', min: 0, max: 86_400 }, default: 600, doc: 'Seconds a preflight answer may be cached.' },
  { path: 'cors.credentials', type: { kind: 'boolean' }, default: false, doc: 'Allow credentialed requests.' },

  {
    path: 'origin',
    type: {
      kind: 'anyOf',
      of: [
        { kind: 'string', note: 'https URL (http only for localhost), or builtin:echo' },
        { kind: 'object', fields: [{ name: 'service', type: { kind: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }, required: true, binding: 'service' }] },
      ],
    },
    doc: 'Forward here instead of the route\'s own origin: a URL (its scheme, host and port always; the path and query are set on a copy, never resolved), `builtin:echo`, or `{ "service": "API" }` ([service binding](#service-binding-origin)).',
  },
  { path: 'clockTolerance', type: { kind: 'integer', min: 0, max: 600 }, default: 0, doc: 'Seconds of skew on `exp`/`nbf` (and `iat` under `maxTokenAge`).' },
  { path: 'realm', type: { kind: 'string', minLength: 1, pattern: '^[^"\\\\\\r\\n]*$' }, default: 'edgejwt', doc: 'The `realm` in `WWW-Authenticate`.' },

  { path: 'cache', type: { kind: 'section', keys: 'CACHE_KEYS' }, doc: 'The verify and key-set caches.' },
  {
    path: 'cache.verify',
    type: { kind: 'anyOf', of: [{ kind: 'boolean' }, { kind: 'const', value: 'all' }, { kind: 'list', item: ALGORITHMS }] },
    ts: "boolean | 'all' | readonly string[]",
    default: false,
    doc: 'Which verified tokens the KV verify cache keeps: `true` (ECDSA algorithms, chosen by measurement), `"all"`, or a list of algorithms.',
  },
  { path: 'cache.jwks', type: { kind: 'boolean' }, default: true, doc: 'Keep fetched key sets in KV.' },
  {
    path: 'cache.jwksColo',
    type: { kind: 'boolean' },
    default: true,
    doc: "Keep fetched key sets and discovery documents in this data centre's Cache API (sealed; needs CACHE_KEY), so refetches are bounded per data centre ([Key sets per data centre](#key-sets-per-data-centre-the-cache-api-tier)).",
  },
  { path: 'cache.verifyTtl', type: { kind: 'integer', min: 60, max: 86_400 }, default: 300, doc: 'Longest life of a KV verify entry, seconds.' },
  { path: 'cache.l1Max', type: { kind: 'integer', min: 0, max: 100_000 }, default: 1000, doc: 'Entries in the per-isolate cache.' },
  { path: 'cache.kvTimeoutMs', type: { kind: 'integer', min: 1, max: 10_000 }, default: 100, doc: 'A KV read slower than this is a miss.' },
  {
    path: 'cache.verifyAdmission',
    type: { kind: 'enum', values: ['seen-twice', 'always'] },
    default: 'seen-twice',
    doc: 'When a verified token gets its KV entry: on its second sighting in an isolate (one-off tokens cost no KV write), or always on the first verify.',
  },
  { path: 'cache.verifyWritesPerMinute', type: { kind: 'integer', min: 1, max: 100_000 }, default: 60, doc: 'KV verify-cache writes per isolate per minute; the rest are counted as `l2_write_over_budget`.' },

  { path: 'jwks', type: { kind: 'section', keys: 'JWKS_KEYS' }, doc: 'Key-set and discovery fetches ([Key removal](#key-removal-how-long-a-dropped-key-keeps-working)).' },
  { path: 'jwks.timeoutMs', type: { kind: 'integer', min: 100, max: 30_000 }, default: 3000, doc: 'One deadline over a key-set or discovery fetch, body included; past it the request is a 503.' },
  { path: 'jwks.cooldownMs', type: { kind: 'integer', min: 0, max: 3_600_000 }, default: 30_000, doc: 'Time between refetches caused by unknown `kid`s or failures.' },
  {
    path: 'jwks.maxAgeMs',
    type: { kind: 'number', min: 5000, max: 86_400_000 },
    default: 600_000,
    doc: 'Longest a fetched key set is used before the issuer is asked again, whatever Cache-Control says (a response without it is kept this long); a removed key stops verifying, cached verdicts included, within this bound.',
  },

  { path: 'admin', type: { kind: 'section', keys: 'ADMIN_KEYS' }, doc: 'Serves the counters as JSON to requests with `X-Guard-Admin: <secret>`.' },
  { path: 'admin.path', type: PATH, required: true, doc: 'Where the counters are served (e.g. `/__guard/counters`).' },
  { path: 'admin.secretBinding', type: NAME, required: true, binding: 'secret', doc: 'Name of the secret (at least 16 characters) a request must send in `X-Guard-Admin`.' },

  {
    path: 'originAssertion',
    type: { kind: 'section', tsName: 'OriginAssertionInput', keys: 'ORIGIN_ASSERTION_KEYS', doc: 'The `originAssertion` setting: the guard signs the verified identity for the origin.' },
    doc: 'A short-lived JWT signed by the guard on every forwarded authenticated request; its public key set is served at `jwksPath`; client-sent copies of the header are always removed.',
  },
  { path: 'originAssertion.keyBinding', type: NAME, required: true, binding: 'secret', doc: 'Name of the secret holding the private JWK (JSON).' },
  { path: 'originAssertion.header', type: { kind: 'string' }, default: 'X-Edgejwt-Assertion', doc: 'The request header that carries it.' },
  { path: 'originAssertion.alg', type: { kind: 'enum', values: SUPPORTED_ALGORITHMS.filter((a) => !a.startsWith('HS')) }, ts: 'string', default: 'EdDSA', doc: 'An asymmetric algorithm.' },
  { path: 'originAssertion.ttl', type: { kind: 'integer', min: 1, max: 3600 }, default: 60, doc: 'Seconds it is valid.' },
  {
    path: 'originAssertion.claims',
    type: { kind: 'list', item: { kind: 'string', notIn: ['iss', 'aud', 'exp', 'iat', 'nbf', 'jti'] } },
    ts: 'readonly string[]',
    default: ['sub'],
    doc: 'Claims copied from the verified token.',
  },
  { path: 'originAssertion.jwksPath', type: PATH, default: '/.well-known/edgejwt/jwks.json', doc: 'Where the public key set is served.' },
  { path: 'originAssertion.issuer', type: NAME, doc: 'Its `iss` (default: the guard\'s origin).' },
  { path: 'originAssertion.audience', type: NAME, doc: 'Its `aud` (default: the configured origin\'s, else the guard\'s own).' },

  { path: 'dpop', type: { kind: 'section', tsName: 'DpopInput', keys: 'DPOP_KEYS', doc: 'The `dpop` section: how DPoP proofs are checked.' }, doc: 'DPoP proofs (RFC 9449) for the issuers that set `dpop`; required when one does, refused when none does. Whatever the config, a token whose `cnf` names a key the request did not prove is refused. Browser clients behind `cors`: allow the `DPoP` header, expose `DPoP-Nonce` and `WWW-Authenticate`.' },
  {
    path: 'dpop.replay',
    type: storeOrIsolate('DpopReplayShard'),
    ts: "'isolate' | { durableObject: string }",
    required: true,
    doc: 'Where proof `jti`s are remembered: `{ "durableObject": "DPOP_REPLAY" }` (class `DpopReplayShard`), or `"isolate"` (this isolate only: tests and one-isolate dev; check-config warns). A store that does not answer is a 503, never a pass.',
  },
  { path: 'dpop.nonceSecretBinding', type: NAME, binding: 'secret', doc: 'Name of a secret (at least 32 characters) for stateless server nonces: a proof must then carry a recent one (`401 use_dpop_nonce` with `DPoP-Nonce` otherwise).' },
  {
    path: 'dpop.algorithms',
    type: { kind: 'oneOrMany', item: { kind: 'enum', values: SUPPORTED_ALGORITHMS.filter((a) => !a.startsWith('HS')) } },
    ts: 'OneOrMany<string>',
    default: ['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256'],
    doc: 'Proof algorithms accepted, asymmetric only.',
  },
  { path: 'dpop.maxAgeSeconds', type: { kind: 'integer', min: 1, max: 300 }, default: 60, doc: 'The oldest proof `iat` accepted, seconds.' },

  { path: 'revocation', type: { kind: 'section', tsName: 'RevocationInput', keys: 'REVOCATION_KEYS', doc: 'The `revocation` section: the admin endpoint, the list, how fresh each isolate\'s copy is.' }, doc: 'Token revocation ([Revocation](#revocation)): every verified token is checked against the list; 503 when it cannot be known to be current (fail closed).' },
  { path: 'revocation.path', type: PATH, required: true, doc: 'The admin endpoint (`X-Guard-Admin`): POST `{"jti","exp"}` or `{"iss","sub","issuedBefore","exp"}`, GET lists what is in force; answered before any token check.' },
  { path: 'revocation.secretBinding', type: NAME, required: true, binding: 'secret', doc: 'Name of the secret (at least 16 characters) a request must send in `X-Guard-Admin`.' },
  {
    path: 'revocation.store',
    type: storeOrIsolate('RevocationList'),
    ts: "'isolate' | { durableObject: string }",
    required: true,
    doc: 'The list: `{ "durableObject": "REVOCATIONS" }` (class `RevocationList`), or `"isolate"` (this isolate only: tests and one-isolate dev; check-config warns).',
  },
  { path: 'revocation.refreshMs', type: { kind: 'integer', min: 100, max: 60_000 }, default: 1000, doc: 'An isolate\'s copy older than this is refreshed before it answers: the bound on how long an isolate takes to learn of a revocation.' },
  { path: 'revocation.timeoutMs', type: { kind: 'integer', min: 10, max: 5000 }, default: 250, doc: 'How long one refresh may wait for the list.' },
  { path: 'revocation.maxStaleMs', type: { kind: 'integer', min: 1000, max: 600_000 }, default: 10_000, doc: 'With no good refresh for this long every verified request gets 503; at least `refreshMs`.' },

  { path: 'resource', type: { kind: 'section', tsName: 'ResourceInput', keys: 'RESOURCE_KEYS', doc: 'The `resource` section: this API as an OAuth protected resource (RFC 9728, RFC 8707).' }, doc: 'This API as an OAuth protected resource: its metadata served without a token, `resource_metadata` on every challenge, and its `id` the default audience ([Protect an MCP server](#protect-an-mcp-server)).' },
  { path: 'resource.id', type: { kind: 'string', format: 'uri' }, required: true, doc: 'The resource identifier (RFC 8707): https (http only on loopback), no query or fragment, written as the URL parser writes it; the metadata is at `/.well-known/oauth-protected-resource` + its path.' },
  { path: 'resource.scopes', type: { kind: 'oneOrMany', item: { kind: 'string', pattern: '^[!#-\\[\\]-~]+$' } }, doc: 'The scopes this resource understands (`scopes_supported`).' },
  { path: 'resource.documentation', type: { kind: 'string', format: 'uri' }, doc: 'A page about this API for developers (`resource_documentation`).' },

  { path: 'paths', type: { kind: 'section', keys: 'PATHS_KEYS' }, doc: 'How request paths are read, matched and forwarded ([Request paths](#request-paths)).' },
  { path: 'paths.escapedSlashes', type: { kind: 'enum', values: ['reject', 'decode'] }, default: 'reject', doc: '`reject`: 400 for `%2F`/`%5C`; `decode`: read them as `/`.' },
  { path: 'paths.caseSensitive', type: { kind: 'boolean' }, default: false, doc: '`false`: rules ignore letter case.' },
  { path: 'paths.forward', type: { kind: 'enum', values: ['canonical', 'received'] }, default: 'canonical', doc: 'The path the origin receives: the canonical one, or as the runtime received it.' },
];

/** Bindings read by fixed names. */
export const FIXED_BINDINGS: readonly FixedBinding[] = [
  { binding: 'CACHE_KEY', kind: 'secret', setting: 'CACHE_KEY', doc: 'Seals what the guard writes to KV; without it the KV caches are off.' },
  { binding: 'JWKS_CACHE', kind: 'kv', setting: 'cache.jwks', doc: 'Fetched key sets (with CACHE_KEY set and cache.jwks on).' },
  { binding: 'VERIFY_CACHE', kind: 'kv', setting: 'cache.verify', doc: 'Verified tokens (with CACHE_KEY set and cache.verify on).' },
];
