// A public key handed over as an HMAC secret: the algorithm-confusion input of fast-jwt
// CVE-2023-48223 and CVE-2026-34950, PyJWT CVE-2022-29217 and python-jose CVE-2024-33663.
// Anyone can read a published public key, so a verifier using its text as an HS secret
// accepts tokens MACed by anyone. The forms recognised are the ones such keys travel in:
// PEM, an OpenSSH line, JWK JSON, and DER SubjectPublicKeyInfo. A random secret is one of
// them with negligible probability (it would have to spell one of these prefixes).

/** The refusal's reason, the same for verifying and signing keys; it never repeats the key. */
export const PUBLIC_KEY_SECRET = 'an HMAC secret that is a public key (PEM, OpenSSH, JWK or DER): anyone can MAC with it';

const enc = new TextEncoder();
const PEM = enc.encode('-----BEGIN ');
/** OpenSSH public key lines (RFC 4253 §6.6, RFC 5656 §3.1, and OpenSSH's security-key forms). */
const SSH = ['ssh-', 'ecdsa-sha2-', 'sk-ssh-', 'sk-ecdsa-'].map((p) => enc.encode(p));
const KTY = enc.encode('"kty"');
/** The algorithm OIDs of an SPKI (DER, tag and length included): rsaEncryption, id-ecPublicKey, Ed25519. */
const OIDS = [
  [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01],
  [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01],
  [0x06, 0x03, 0x2b, 0x65, 0x70],
].map((o) => new Uint8Array(o));

function startsWith(bytes: Uint8Array, at: number, prefix: Uint8Array): boolean {
  if (bytes.length - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

function contains(bytes: Uint8Array, part: Uint8Array): boolean {
  for (let at = 0; at + part.length <= bytes.length; at++) if (startsWith(bytes, at, part)) return true;
  return false;
}

/**
 * True when `secret` is a public key's text or DER: never usable as an HMAC secret.
 *
 * @example
 * isPublicKeyText(new TextEncoder().encode('\n-----BEGIN PUBLIC KEY-----\n…')); // true
 * isPublicKeyText(crypto.getRandomValues(new Uint8Array(32))); // false
 */
export function isPublicKeyText(secret: Uint8Array): boolean {
  let at = 0;
  // ASCII whitespace first: fast-jwt's CVE-2026-34950 was a PEM behind a newline.
  while (at < secret.length && (secret[at] === 0x20 || (secret[at]! >= 0x09 && secret[at]! <= 0x0d))) at++;
  if (startsWith(secret, at, PEM) || SSH.some((p) => startsWith(secret, at, p))) return true;
  if (secret[at] === 0x7b /* { */) return contains(secret, KTY);
  return secret[0] === 0x30 && OIDS.some((oid) => contains(secret, oid));
}
