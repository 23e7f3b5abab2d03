// Keys, the shared guard configuration and distinct signed tokens for the
// isolate and load benches (node:crypto, so minting thousands is quick).
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export const BENCH_ALGS = ['HS256', 'EdDSA', 'RS256', 'ES256'] as const;
export type BenchAlg = (typeof BENCH_ALGS)[number];
export const AUDIENCE = 'api';
export const issuerOf = (alg: BenchAlg): string => `https://${alg.toLowerCase()}.issuer.bench.invalid`;

const b64u = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const HS_SECRET = Buffer.from('bench-only-hs256-secret-32-bytes'); // 32 bytes, not a secret

export interface BenchKeys {
  jwks: Record<BenchAlg, Record<string, unknown>>;
  privateKeys: Partial<Record<BenchAlg, KeyObject>>;
  hsKey: string;
  /** The guard's origin-assertion signing key (private Ed25519 JWK as JSON). */
  assertionKey: string;
}

export function benchKeys(): BenchKeys {
  const privateKeys: Partial<Record<BenchAlg, KeyObject>> = {};
  const jwks = {} as Record<BenchAlg, Record<string, unknown>>;
  for (const alg of ['EdDSA', 'RS256', 'ES256'] as const) {
    const pair =
      alg === 'EdDSA'
        ? generateKeyPairSync('ed25519')
        : alg === 'RS256'
          ? generateKeyPairSync('rsa', { modulusLength: 2048 })
          : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    privateKeys[alg] = pair.privateKey;
    jwks[alg] = {
      ...(pair.publicKey.export({ format: 'jwk' }) as object),
      kid: `${alg.toLowerCase()}-1`,
      alg,
      use: 'sig',
    };
  }
  const assertionKey = JSON.stringify(generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }));
  return { jwks, privateKeys, hsKey: HS_SECRET.toString('base64url'), assertionKey };
}

export interface ConfigOptions {
  verifyCache?: boolean | string | string[];
  l1Max?: number;
  /** Serve the JWKS issuers' keys from this URL instead of inline. */
  jwksUrl?: string;
  /** Turn on the origin assertion (EdDSA, sub + scope, 60 s). */
  assertion?: boolean;
  /** The KV verify cache's admission policy (the guard's default: seen-twice). */
  verifyAdmission?: 'seen-twice' | 'always';
}

/** One GUARD_CONFIG with an issuer per algorithm (HS256 through a secret binding). */
export function guardConfig(keys: BenchKeys, o: ConfigOptions = {}): string {
  const issuers = BENCH_ALGS.map((alg) =>
    alg === 'HS256'
      ? { issuer: issuerOf(alg), audience: AUDIENCE, algorithms: [alg], secretBinding: 'HS_KEY' }
      : {
          issuer: issuerOf(alg),
          audience: AUDIENCE,
          algorithms: [alg],
          ...(o.jwksUrl !== undefined ? { jwksUrl: `${o.jwksUrl}?alg=${alg}` } : { jwks: { keys: [keys.jwks[alg]] } }),
        },
  );
  return JSON.stringify({
    issuers,
    origin: 'builtin:echo',
    forwardClaims: { sub: 'X-Auth-Sub', scope: 'X-Auth-Scope' },
    cache: {
      verify: o.verifyCache ?? false,
      jwks: true,
      ...(o.l1Max !== undefined ? { l1Max: o.l1Max } : {}),
      ...(o.verifyAdmission !== undefined ? { verifyAdmission: o.verifyAdmission } : {}),
    },
    ...(o.assertion === true
      ? { originAssertion: { alg: 'EdDSA', ttl: 60, claims: ['sub', 'scope'], keyBinding: 'ASSERTION_KEY' } }
      : {}),
  });
}

export function mint(keys: BenchKeys, alg: BenchAlg, n: number, claims: Record<string, unknown> = {}): string[] {
  const now = Math.floor(Date.now() / 1000);
  const header = b64u(
    JSON.stringify({ alg, typ: 'JWT', ...(alg === 'HS256' ? {} : { kid: `${alg.toLowerCase()}-1` }) }),
  );
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = {
      iss: issuerOf(alg),
      aud: AUDIENCE,
      sub: `user-${i}`,
      scope: 'read write',
      iat: now,
      exp: now + 3600,
      jti: `${alg}-${i}-${now}`,
      ...claims,
    };
    const input = `${header}.${b64u(JSON.stringify(body))}`;
    const sig =
      alg === 'HS256'
        ? createHmac('sha256', HS_SECRET).update(input).digest()
        : alg === 'ES256'
          ? sign('sha256', Buffer.from(input), { key: keys.privateKeys.ES256!, dsaEncoding: 'ieee-p1363' })
          : sign(alg === 'EdDSA' ? null : 'sha256', Buffer.from(input), keys.privateKeys[alg]!);
    out.push(`${input}.${b64u(sig)}`);
  }
  return out;
}
