// A public key handed over as an HMAC secret: the algorithm-confusion input of fast-jwt
// CVE-2023-48223 and CVE-2026-34950, PyJWT CVE-2022-29217 and python-jose CVE-2024-33663.
// Anyone can read a published public key, so a verifier using its text as an HS secret
// accepts tokens MACed by anyone. The forms recognised are the ones such keys travel in:
// PEM, an OpenSSH line, JWK JSON, and DER SubjectPublicKeyInfo. A random secret is one of
// them with negligible probability (it would have to spell one of these prefixes).

/** The refusal's reason, the same for verifying and signing keys; it never repeats the key. */
export const PUBLIC_KEY_SECRET =
  'an HMAC secret that is a public key (PEM, OpenSSH, JWK or DER): anyone can MAC with it';

/** PEM and the OpenSSH public key lines (RFC 4253 §6.6, RFC 5656 §3.1, OpenSSH's security-key forms). */
const TEXT = /^[\t-\r ]*(?:-----BEGIN |ssh-|ecdsa-sha2-|sk-ssh-|sk-ecdsa-)/;
/** A JWK as JSON: an object naming `kty`. */
const JWK_JSON = /^[\t-\r ]*\{[^]*"kty"/;
/** The algorithm OIDs of an SPKI, tag and length included: rsaEncryption, id-ecPublicKey, Ed25519. */
const OIDS = [
  '\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01',
  '\x06\x07\x2a\x86\x48\xce\x3d\x02\x01',
  '\x06\x03\x2b\x65\x70',
];

/**
 * True when `secret` is a public key's text or DER: never usable as an HMAC secret.
 *
 * @example
 * isPublicKeyText(new TextEncoder().encode('\n-----BEGIN PUBLIC KEY-----\n…')); // true
 * isPublicKeyText(crypto.getRandomValues(new Uint8Array(32))); // false
 */
export function isPublicKeyText(secret: Uint8Array): boolean {
  // One character per byte, so the patterns read text and DER alike; ASCII whitespace may lead
  // (fast-jwt's CVE-2026-34950 was a PEM behind a newline).
  let text = '';
  for (const byte of secret) text += String.fromCharCode(byte);
  return TEXT.test(text) || JWK_JSON.test(text) || (text[0] === '0' && OIDS.some((oid) => text.includes(oid)));
}
