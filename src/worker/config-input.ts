// GUARD_CONFIG as you write it (parseConfig turns it into GuardConfig). Every
// field here is checked by config.ts; the JSON Schema (guard-config.schema.json)
// describes the same shape for editors. Names are the contract.

type OneOrMany<T> = T | readonly T[];
type ClaimValue = string | number | boolean;

/** One trusted issuer: who signs, for whom, with which algorithms, and where its keys are. */
export interface IssuerInput {
  /** The exact `iss`; a list accepts several spellings (Google: with and without https://). */
  issuer?: OneOrMany<string>;
  /** Required unless `claims` binds the token to this API. */
  audience?: OneOrMany<string>;
  /** Claim values every token must carry (Cognito access tokens: `{ "client_id": ["…"], "token_use": "access" }`). */
  claims?: Record<string, OneOrMany<ClaimValue>>;
  algorithms?: OneOrMany<string>;
  /** Required header `typ`: `at+jwt` where the provider marks its access tokens, so its ID tokens are refused. */
  typ?: string;
  /** Seconds (1..31536000): refuse tokens whose `iat` is older; `iat` is then required and never later than now + clockTolerance. */
  maxTokenAge?: number;
  /** `"at+jwt"`: RFC 9068 access tokens only (typ at+jwt; iss, exp, aud, sub, client_id, iat, jti present). Needs `audience`. */
  profile?: 'at+jwt';
  /** Inline public keys. */
  jwks?: { keys: Record<string, unknown>[] };
  /** https (http only on loopback). */
  jwksUrl?: string;
  /** Name of a secret binding holding an HS* key (base64url). */
  secretBinding?: string;
  /** OIDC discovery from `<issuer>/.well-known/openid-configuration` (also the default with no key source). */
  discovery?: true;
  /** Cloudflare Access: sets issuer, JWKS URL and RS256 from the team name; `audience` is the AUD tag. */
  cloudflareAccess?: { team: string };
  /** RFC 9449: `required` takes only DPoP-bound tokens with a proof; `allowed` takes unbound bearer tokens too. Needs the top-level `dpop`. */
  dpop?: 'required' | 'allowed';
}

/** A route rule: the first whose prefix and methods match decides. */
export interface RuleInput {
  pathPrefix: string;
  methods?: OneOrMany<string>;
  /** "required" (default), "optional" (no token: anonymous), "none" (no check). */
  auth?: 'required' | 'optional' | 'none';
  /** Only tokens of these configured issuers. */
  issuers?: OneOrMany<string>;
  /** The token's aud must hold one of these. */
  audience?: OneOrMany<string>;
  scopes?: OneOrMany<string>;
  claims?: Record<string, OneOrMany<ClaimValue>>;
}

/** The `originAssertion` setting: the guard signs the verified identity for the origin. */
export interface OriginAssertionInput {
  /** Name of the secret holding the private JWK (JSON). */
  keyBinding: string;
  /** Default "X-Edgejwt-Assertion". */
  header?: string;
  /** An asymmetric algorithm (default "EdDSA"). */
  alg?: string;
  /** Seconds, 1..3600 (default 60). */
  ttl?: number;
  /** Claims copied from the verified token (default ["sub"]). */
  claims?: readonly string[];
  /** Where the public key set is served (default "/.well-known/edgejwt/jwks.json"). */
  jwksPath?: string;
  issuer?: string;
  audience?: string;
}

export interface CorsInput {
  allowOrigins: OneOrMany<string>;
  allowMethods?: readonly string[];
  allowHeaders?: readonly string[];
  exposeHeaders?: readonly string[];
  maxAge?: number;
  credentials?: boolean;
}

/**
 * The guard's configuration as written in GUARD_CONFIG or passed to createGuard.
 * @example
 * const config: GuardConfigInput = {
 *   issuers: [{ issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example.com/jwks' }],
 *   rules: [{ pathPrefix: '/admin/', scopes: ['admin'] }],
 * };
 */
export interface GuardConfigInput {
  /** Where editors find the JSON Schema (`./node_modules/edgejwt/dist/worker/guard-config.schema.json`); the guard ignores it. */
  $schema?: string;
  issuers: readonly IssuerInput[];
  publicPaths?: readonly string[];
  rules?: readonly RuleInput[];
  tokenSources?: readonly ({ header: string } | { cookie: string })[];
  forwardClaims?: Record<string, string>;
  forwardPayload?: string;
  forwardToken?: boolean;
  cors?: CorsInput;
  /** A URL, "builtin:echo", or a service binding. */
  origin?: string | { service: string };
  clockTolerance?: number;
  realm?: string;
  cache?: {
    verify?: boolean | 'all' | readonly string[];
    jwks?: boolean;
    verifyTtl?: number;
    l1Max?: number;
    kvTimeoutMs?: number;
    /** "seen-twice" (default: KV write on a token's second sighting in an isolate) or "always". */
    verifyAdmission?: 'seen-twice' | 'always';
    /** KV verify-cache writes per isolate per minute (default 60). */
    verifyWritesPerMinute?: number;
  };
  /** Key-set fetches: timeout, cooldown after an unknown kid or failure, and the longest a fetched set is used (default 600000 ms; also what a response without Cache-Control gets). */
  jwks?: { timeoutMs?: number; cooldownMs?: number; maxAgeMs?: number };
  admin?: { path: string; secretBinding: string };
  /** A short-lived JWT signed by the guard on every forwarded authenticated request (docs/deploy.md). */
  originAssertion?: OriginAssertionInput;
  /** How request paths are read, matched and forwarded (docs/deploy.md, "Request paths"). */
  paths?: { escapedSlashes?: 'reject' | 'decode'; caseSensitive?: boolean; forward?: 'canonical' | 'received' };
  /**
   * DPoP proofs (RFC 9449) for the issuers that set `dpop`. `replay`: a Durable Object binding
   * (class DpopReplayShard) or `"isolate"` (tests, single-isolate dev only). `nonceSecretBinding`:
   * stateless server nonces. `algorithms`: asymmetric only (default ES256, EdDSA, RS256, PS256).
   * `maxAgeSeconds`: oldest proof accepted (1..300, default 60).
   */
  dpop?: { replay: { durableObject: string } | 'isolate'; nonceSecretBinding?: string; algorithms?: OneOrMany<string>; maxAgeSeconds?: number };
}
