// The peers that run on WebCrypto anywhere (jose, hono's JWT util,
// @tsndr/cloudflare-worker-jwt, bare crypto.subtle.verify), set up for one
// Material. Shared by the Node table and the workerd table so both time the same
// calls. Each peer must accept the token once before it is timed. Every peer gets
// the key as a CryptoKey imported once (its fastest documented path; a secret or
// JWK handed in per call would import it again on every verify): see key-paths.ts.
import * as jose from 'jose';
import { verify as honoVerify } from 'hono/jwt';
import tsndr from '@tsndr/cloudflare-worker-jwt';
import { webCryptoParams, type Material } from './material.ts';

export interface PeerCase {
  name: string;
  fn: () => Promise<unknown>;
}

/** @tsndr has no EdDSA and no PS*. */
export function tsndrSupports(alg: string): boolean {
  return alg !== 'EdDSA' && !alg.startsWith('PS');
}

export async function webPeers(m: Material): Promise<PeerCase[]> {
  const { alg } = m.variant;
  const { verifyParams } = webCryptoParams(alg);
  const joseKey = m.verifyKey;
  const honoKey = m.verifyKey;
  const token = m.token;
  await jose.jwtVerify(token, joseKey, { algorithms: [alg] });
  await honoVerify(token, honoKey as never, alg as never);
  if (
    !(await crypto.subtle.verify(
      verifyParams,
      m.verifyKey,
      m.sig as Uint8Array<ArrayBuffer>,
      m.input as Uint8Array<ArrayBuffer>,
    ))
  ) {
    throw new Error(`bare crypto.subtle rejected ${m.variant.label}`);
  }
  const cases: PeerCase[] = [
    { name: 'jose', fn: () => jose.jwtVerify(token, joseKey, { algorithms: [alg] }) },
    { name: 'hono/jwt', fn: () => honoVerify(token, honoKey as never, alg as never) },
  ];
  if (tsndrSupports(alg)) {
    if (!(await tsndr.verify(token, honoKey as never, { algorithm: alg as never, throwError: true })))
      throw new Error(`@tsndr rejected ${m.variant.label}`);
    cases.push({
      name: '@tsndr/cloudflare-worker-jwt',
      fn: () => tsndr.verify(token, honoKey as never, { algorithm: alg as never }),
    });
  }
  cases.push({
    name: 'crypto.subtle (bare)',
    fn: () =>
      crypto.subtle.verify(
        verifyParams,
        m.verifyKey,
        m.sig as Uint8Array<ArrayBuffer>,
        m.input as Uint8Array<ArrayBuffer>,
      ),
  });
  return cases;
}
