// DPoP test helpers for the guard tests: a client key, proofs made with jose (an
// independent implementation), and access tokens bound to a key by cnf.jkt.

import {
  SignJWT,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  base64url,
  type JWK,
  type CryptoKey as JoseKey,
} from 'jose';

export interface DpopClient {
  alg: string;
  privateKey: JoseKey;
  jwk: JWK;
  jkt: string;
}

export async function dpopClient(alg = 'ES256'): Promise<DpopClient> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  return { alg, privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
}

export async function ath(accessToken: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accessToken))));
}

export interface ProofOptions {
  htm?: string;
  htu?: string;
  iat?: number;
  jti?: string;
  ath?: string | null;
  nonce?: string;
  typ?: string;
  jwk?: JWK;
  claims?: Record<string, unknown>;
}

/** A DPoP proof for `method url` with `accessToken`'s hash; every part can be overridden. */
export async function proof(
  client: DpopClient,
  method: string,
  url: string,
  accessToken: string | undefined,
  o: ProofOptions = {},
): Promise<string> {
  const claims: Record<string, unknown> = {
    htm: o.htm ?? method,
    htu: o.htu ?? url,
    iat: o.iat ?? Math.floor(Date.now() / 1000),
    jti: o.jti ?? crypto.randomUUID(),
    ...o.claims,
  };
  if (o.ath !== null && accessToken !== undefined) claims.ath = o.ath ?? (await ath(accessToken));
  if (o.nonce !== undefined) claims.nonce = o.nonce;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: client.alg, typ: o.typ ?? 'dpop+jwt', jwk: o.jwk ?? client.jwk })
    .sign(client.privateKey);
}

export function dpopInit(accessToken: string, dpopHeader: string | string[], init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set('authorization', `DPoP ${accessToken}`);
  for (const h of Array.isArray(dpopHeader) ? dpopHeader : [dpopHeader]) headers.append('dpop', h);
  return { ...init, headers };
}
