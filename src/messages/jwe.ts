// The fixed messages of the JWE codes (src/errors.ts holds the verify path's): data only,
// so a bundle whose code raises none of them carries none (src/jwe/error.ts registers them).

export const JWE_MESSAGES = {
  ERR_JWE_HEADER_INVALID: 'JWE protected header is invalid',
  ERR_JWE_ALG_NOT_ALLOWED: 'JWE key management or content encryption algorithm is not allowed',
  ERR_JWE_ZIP_UNSUPPORTED: 'compressed JWE payloads (zip) are not accepted',
  ERR_JWE_CRIT_UNSUPPORTED: 'JWE header lists a critical extension that is not understood',
  ERR_JWE_EPK_INVALID: 'JWE ephemeral public key is invalid or on the wrong curve',
  ERR_JWE_CEK_INVALID: 'JWE carries an encrypted key where its alg has none (dir, ECDH-ES)',
  ERR_JWE_DECRYPTION_FAILED: 'JWE decryption failed',
  ERR_JWE_NESTED_REQUIRED: 'a JWE under public-key encryption must carry a signed JWT (cty JWT)',
} as const;
