// The fixed messages of the DPoP codes (src/errors.ts holds the verify path's): data only,
// so a bundle whose code raises none of them carries none (src/dpop/error.ts registers them).

export const DPOP_MESSAGES = {
  ERR_DPOP_PROOF_INVALID: 'DPoP proof is not a well-formed JWS with a JSON header and payload',
  ERR_DPOP_TYP_INVALID: 'DPoP proof typ is not dpop+jwt',
  ERR_DPOP_ALG_NOT_ALLOWED: 'DPoP proof algorithm is not an allowed asymmetric algorithm',
  ERR_DPOP_JWK_INVALID: 'DPoP proof jwk is missing, private, or unusable with its algorithm',
  ERR_DPOP_SIGNATURE_INVALID: 'DPoP proof signature does not verify under its jwk',
  ERR_DPOP_HTM_MISMATCH: 'DPoP proof htm does not match the request method',
  ERR_DPOP_HTU_MISMATCH: 'DPoP proof htu does not match the request URL',
  ERR_DPOP_IAT_INVALID: 'DPoP proof iat is missing or outside the accepted window',
  ERR_DPOP_JTI_INVALID: 'DPoP proof jti is missing or not a usable string',
  ERR_DPOP_ATH_MISMATCH: 'DPoP proof ath is missing or does not match the access token',
  ERR_DPOP_NONCE_MISMATCH: 'DPoP proof nonce is missing or not the expected one',
  ERR_DPOP_BINDING_MISMATCH: 'access token is not bound to the DPoP proof key (cnf.jkt)',
} as const;
