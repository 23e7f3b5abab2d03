// A route guard built on jose, for the isolate bench only: the same GUARD_CONFIG
// subset the bench uses (issuers with inline `jwks`, `jwksUrl` or `secretBinding`,
// Bearer tokens, forwardClaims, the echo origin), with no caches beyond jose's own
// in-memory remote key set. What a team would write by hand with jose.
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, decodeJwt, type JWTVerifyGetKey } from 'jose';

interface IssuerConfig {
  issuer: string;
  audience: string | string[];
  algorithms: string[];
  jwks?: { keys: object[] };
  jwksUrl?: string;
  secretBinding?: string;
}

interface Issuer {
  config: IssuerConfig;
  key: JWTVerifyGetKey | Uint8Array;
}

let issuers: Map<string, Issuer> | undefined;
let forward: [string, string][] = [];

function fromB64u(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function setup(env: Record<string, unknown>): Map<string, Issuer> {
  const raw = env.GUARD_CONFIG;
  const config = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
    issuers: IssuerConfig[];
    forwardClaims?: Record<string, string>;
  };
  forward = Object.entries(config.forwardClaims ?? { sub: 'X-Auth-Sub' });
  const map = new Map<string, Issuer>();
  for (const c of config.issuers) {
    const key =
      c.secretBinding !== undefined
        ? fromB64u(String(env[c.secretBinding]))
        : c.jwksUrl !== undefined
          ? createRemoteJWKSet(new URL(c.jwksUrl))
          : createLocalJWKSet(c.jwks as never);
    map.set(c.issuer, { config: c, key });
  }
  return map;
}

function unauthorized(): Response {
  return new Response('{"error":"invalid_token"}', {
    status: 401,
    headers: {
      'www-authenticate': 'Bearer realm="jose-guard", error="invalid_token"',
      'content-type': 'application/json',
    },
  });
}

// Set up at module scope from the importable env, as the edgejwt Workers of this bench
// are; a request still sets it up if that failed.
void import('cloudflare:workers').then(
  (m: { env: Record<string, unknown> }) => {
    try {
      issuers ??= setup(m.env);
    } catch {
      // left to the first request
    }
  },
  () => undefined,
);

export default {
  async fetch(request: Request, env: Record<string, unknown>): Promise<Response> {
    issuers ??= setup(env);
    const auth = request.headers.get('authorization') ?? '';
    if (!auth.startsWith('Bearer ')) return unauthorized();
    const token = auth.slice(7);
    let payload;
    try {
      // Pick the issuer from the unverified iss; the verify below checks it.
      const iss = decodeJwt(token).iss;
      const is = iss === undefined ? undefined : issuers.get(iss);
      if (is === undefined) return unauthorized();
      ({ payload } = await jwtVerify(token, is.key as never, {
        issuer: is.config.issuer,
        audience: is.config.audience,
        algorithms: is.config.algorithms,
      }));
    } catch {
      return unauthorized();
    }
    const url = new URL(request.url);
    const seen: Record<string, string> = {};
    for (const [claim, header] of forward)
      if (payload[claim] !== undefined) seen[header.toLowerCase()] = String(payload[claim]);
    return new Response(
      JSON.stringify(
        { origin: 'jose-guard echo', method: request.method, path: url.pathname, headers: seen },
        null,
        2,
      ) + '\n',
      {
        headers: { 'content-type': 'application/json; charset=utf-8' },
      },
    );
  },
};
