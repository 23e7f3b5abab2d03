// The JWE decrypt cases of the sign benches (Node and workerd): a fresh CEK, the
// claims encrypted with dir + A256GCM, an HS256 JWT nested the same way, and
// edgejwt's verifier for both, each token checked once by it and by jose before
// anything is timed. The library comes in as a parameter: the Node bench takes
// dist/, the workerd one src/.
import * as jose from 'jose';

interface Lib<V extends { verify(token: string): Promise<unknown> }, D> {
  createEncrypter(options: { alg: 'dir'; enc: 'A256GCM'; key: Uint8Array }): {
    encrypt(payload: Record<string, unknown> | string): Promise<string>;
  };
  jweDecryption(options: { keys: Uint8Array[] }): D;
  createVerifier(options: { algorithms: ['HS256']; key: Uint8Array; cache: false; decryption: D }): V;
}

/** `claims` and `jwt` (an HS256 JWT under `secret`) as compact JWEs under one CEK, with a verifier that opens both. */
export async function jweFixture<V extends { verify(token: string): Promise<unknown> }, D>(
  lib: Lib<V, D>,
  claims: Record<string, unknown>,
  jwt: string,
  secret: Uint8Array,
) {
  const cek = crypto.getRandomValues(new Uint8Array(32));
  const encrypter = lib.createEncrypter({ alg: 'dir', enc: 'A256GCM', key: cek });
  const direct = await encrypter.encrypt(claims);
  const nested = await encrypter.encrypt(jwt);
  const ours = lib.createVerifier({
    algorithms: ['HS256'],
    key: secret,
    cache: false,
    decryption: lib.jweDecryption({ keys: [cek] }),
  });
  await ours.verify(direct);
  await ours.verify(nested);
  const cekKey = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['decrypt']);
  await jose.jwtDecrypt(direct, cek);
  return { cek, cekKey, encrypter, direct, nested, ours };
}
