// Content encryption (RFC 7518 §5): AES-GCM through WebCrypto, and AES-CBC with
// HMAC-SHA-2 (§5.2) with the CBC through WebCrypto and the HMAC in the Wasm core.
// For CBC-HS the tag is checked, in constant time inside the core, before a single
// block is decrypted: a padding error can never be observed for a forged token.

import { jweBackend } from '#crypto-backend';
import { JwtError } from '../errors.js';
import { jweError } from './error.js';
import { getCore } from '../wasm/instance.js';
import { coreHmac } from '../wasm/core-hash.js';
import type { EncSpec } from './algorithms.js';

export interface Sealed {
  iv: Uint8Array;
  ciphertext: Uint8Array;
  tag: Uint8Array;
}

function failed(): JwtError {
  return jweError('ERR_JWE_DECRYPTION_FAILED');
}

/** AAD || IV || ciphertext || AL (the AAD's length in bits, 64-bit big-endian): the MAC input of §5.2.2.1. */
function macInput(aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  const out = new Uint8Array(aad.length + iv.length + ciphertext.length + 8);
  out.set(aad, 0);
  out.set(iv, aad.length);
  out.set(ciphertext, aad.length + iv.length);
  const bits = aad.length * 8;
  const view = new DataView(out.buffer, out.length - 8, 8);
  view.setUint32(0, Math.floor(bits / 2 ** 32));
  view.setUint32(4, bits >>> 0);
  return out;
}

function macHash(spec: EncSpec): 'SHA-256' | 'SHA-512' {
  return spec.enc === 'A128CBC-HS256' ? 'SHA-256' : 'SHA-512';
}

/** Import the MAC half of the CEK into a Wasm slot just for this call; run `use`; drop (wipe) the slot. */
function withMacKey<T>(spec: EncSpec, cek: Uint8Array, use: (slot: number) => T): T {
  const core = getCore();
  const slot = core.hmacImport(macHash(spec), cek.subarray(0, spec.cekLength / 2));
  try {
    return use(slot);
  } finally {
    core.hmacDrop(slot);
  }
}

/** A reusable AES-GCM decryption key for callers that keep a CEK (`dir`): a CryptoKey, or the bytes under node. */
export function gcmDecryptionKey(cek: Uint8Array): Uint8Array | Promise<CryptoKey> {
  return jweBackend.gcmKey(cek);
}

/**
 * The plaintext, or a promise of it: no promise layer of its own on the AES-GCM path
 * (under node the cipher answers synchronously; in workerd each layer was a measurable
 * share of a ~15 µs decrypt, bench/sign/sign-jwe-workerd.ts).
 */
export function decryptContent(
  spec: EncSpec,
  cek: Uint8Array | CryptoKey,
  aad: Uint8Array,
  sealed: Sealed,
): Uint8Array | Promise<Uint8Array> {
  const { iv, ciphertext, tag } = sealed;
  if (iv.length !== spec.ivLength || tag.length !== spec.tagLength) throw failed();
  if (spec.kind === 'gcm') return aesGcmDecrypt(cek, iv, aad, ciphertext, tag);
  return decryptCbcHs(spec, cek, aad, iv, ciphertext, tag);
}

async function decryptCbcHs(
  spec: EncSpec,
  cek: Uint8Array | CryptoKey,
  aad: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Promise<Uint8Array> {
  if (!(cek instanceof Uint8Array)) throw failed();
  if (ciphertext.length === 0 || ciphertext.length % 16 !== 0) throw failed();
  const data = macInput(aad, iv, ciphertext);
  if (data.length > getCore().inputCap) throw failed();
  const ok = withMacKey(spec, cek, (slot) => getCore().verify('hmac', slot, { message: data, signature: tag }));
  if (!ok) throw failed();
  // Only reached with a valid tag: a padding error here is a sender's mistake, not an oracle.
  return aesCbcDecrypt(cek.subarray(spec.cekLength / 2), iv, ciphertext);
}

/** AES-GCM with a 128-bit tag; any failure is ERR_JWE_DECRYPTION_FAILED (thrown, or the promise's rejection). */
export function aesGcmDecrypt(
  cek: Uint8Array | CryptoKey,
  iv: Uint8Array,
  aad: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Uint8Array | Promise<Uint8Array> {
  if (tag.length !== 16) throw failed();
  let out: Uint8Array | Promise<Uint8Array>;
  try {
    out = jweBackend.gcmDecrypt(cek, iv, aad, ciphertext, tag);
  } catch {
    throw failed();
  }
  return out instanceof Promise
    ? out.then(undefined, () => {
        throw failed();
      })
    : out;
}

/** AES-CBC with PKCS#7 padding removed (and checked); any failure is ERR_JWE_DECRYPTION_FAILED. */
export async function aesCbcDecrypt(encKey: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Promise<Uint8Array> {
  try {
    return await jweBackend.cbcDecrypt(encKey, iv, ciphertext);
  } catch {
    throw failed();
  }
}

export async function encryptContent(
  spec: EncSpec,
  cek: Uint8Array | CryptoKey,
  aad: Uint8Array,
  plaintext: Uint8Array,
): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(spec.ivLength));
  if (spec.kind === 'gcm') return { iv, ...(await jweBackend.gcmEncrypt(cek, iv, aad, plaintext)) };
  if (!(cek instanceof Uint8Array)) throw new TypeError('CBC-HS needs the CEK bytes');
  const ciphertext = await jweBackend.cbcEncrypt(cek.subarray(spec.cekLength / 2), iv, plaintext);
  const data = macInput(aad, iv, ciphertext);
  if (data.length > getCore().inputCap)
    throw new JwtError('ERR_JWT_TOO_LARGE', { reason: 'the JWE would not fit the core buffer' });
  const tag = withMacKey(spec, cek, (slot) => coreHmac(getCore(), slot, data)).slice(0, spec.tagLength);
  return { iv, ciphertext, tag };
}
