// The small JWK member checks every key reader shares (verification keys, signing
// keys, JWE keys): one error shape for a bad key, base64url members decoded or
// refused, the bit length of a big-endian integer, the coordinate size per curve.

import { decodeSegment } from '../b64.js';
import { JwtError } from '../errors.js';

/** Coordinate (and private scalar) length in bytes of the JOSE EC curves. */
export const EC_COORD: Record<string, number> = { 'P-256': 32, 'P-384': 48, 'P-521': 66 };

/**
 * The reason a string `key` gets: an HS secret is bytes (a string is ambiguous: text,
 * base64 or hex?). Fixed text: the string may be the secret itself.
 *
 * @example
 * throw bad(STRING_KEY_REASON);
 */
export const STRING_KEY_REASON =
  'a string is not a key: pass an HMAC secret as bytes (new TextEncoder().encode(secret)), or a JWK or CryptoKey';

/** The error for a key that cannot be used; `reason` never holds key material. */
export function bad(reason: string): JwtError {
  return new JwtError('ERR_KEY_INVALID', { reason });
}

/** A required base64url JWK member as bytes; `what` names the member in the error. */
export function bytesOf(value: unknown, what: string): Uint8Array {
  if (typeof value !== 'string') throw bad(`${what} missing`);
  const bytes = decodeSegment(value, 0, value.length);
  if (bytes === undefined) throw bad(`${what} is not base64url`);
  return bytes;
}

/** Bit length of a big-endian unsigned integer (leading zero bytes ignored). */
export function bitLength(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  if (i === bytes.length) return 0;
  return (bytes.length - i - 1) * 8 + (32 - Math.clz32(bytes[i]!));
}

/**
 * `key_ops` (RFC 7517 §4.3): when present, an array of strings with no value twice.
 * Returns it typed; a duplicate or a non-string is ERR_KEY_INVALID in every key reader.
 *
 * @example
 * keyOps(['verify']); // ['verify']
 * keyOps(['sign', 'sign']); // throws ERR_KEY_INVALID
 */
export function keyOps(ops: unknown): readonly string[] | undefined {
  if (ops === undefined) return undefined;
  if (!Array.isArray(ops) || ops.some((o) => typeof o !== 'string')) throw bad('key_ops is not a string array');
  if (new Set(ops).size !== ops.length) throw bad('key_ops lists an operation twice');
  return ops as string[];
}
