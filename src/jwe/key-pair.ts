// A private decryption JWK carries its public part (`x`,`y` / `x` / `n`,`e`) beside the
// private one. Runtimes differ on which they trust, and a public part that belongs to
// another key makes the decrypter derive secrets from a point nobody encrypted to.
// So before a private key decrypts its first token, the pair is shown to match:
// ECDH from both sides with a fresh ephemeral key must agree, and RSA-OAEP must
// decrypt what its public part encrypted.

import { JwtError } from '../errors.js';

function mismatch(): JwtError {
  return new JwtError('ERR_KEY_INVALID', { reason: 'the public part of the JWK does not match its private key' });
}

function equal(a: ArrayBuffer, b: ArrayBuffer): boolean {
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

/**
 * `priv` once ECDH(priv, E) equals ECDH(e, pub) for a fresh ephemeral pair (e, E):
 * true exactly when `pub` is priv's public key. `params` are the ECDH (or X25519)
 * import parameters; `bits` the shared secret's length.
 *
 * @example
 * const key = await ecdhPairMatches(
 *   privateKey,
 *   { kty: 'EC', crv: 'P-256', x, y },
 *   { name: 'ECDH', namedCurve: 'P-256' },
 *   256,
 * );
 */
export async function ecdhPairMatches(
  priv: CryptoKey,
  pub: JsonWebKey,
  params: EcKeyImportParams | Algorithm,
  bits: number,
): Promise<CryptoKey> {
  const claimed = await crypto.subtle.importKey('jwk', pub, params, false, []);
  const eph = (await crypto.subtle.generateKey(params as EcKeyGenParams, false, ['deriveBits'])) as CryptoKeyPair;
  const derive = (publicKey: CryptoKey, privateKey: CryptoKey) =>
    crypto.subtle.deriveBits({ name: params.name, public: publicKey } as EcdhKeyDeriveParams, privateKey, bits);
  const [ours, theirs] = await Promise.all([derive(eph.publicKey, priv), derive(claimed, eph.privateKey)]);
  if (!equal(ours, theirs)) throw mismatch();
  return priv;
}

/**
 * `priv` once it decrypts a random block that the JWK's `n`,`e` encrypted (RSA-OAEP-256).
 *
 * @example
 * const key = await oaepPairMatches(privateKey, { kty: 'RSA', n, e });
 */
export async function oaepPairMatches(priv: CryptoKey, pub: JsonWebKey): Promise<CryptoKey> {
  const params = { name: 'RSA-OAEP', hash: 'SHA-256' };
  const claimed = await crypto.subtle.importKey('jwk', pub, params, false, ['encrypt']);
  const probe = crypto.getRandomValues(new Uint8Array(32));
  const sealed = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, claimed, probe as BufferSource);
  let opened: ArrayBuffer;
  try {
    opened = await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, priv, sealed);
  } catch {
    throw mismatch();
  }
  if (!equal(opened, probe.buffer)) throw mismatch();
  return priv;
}
