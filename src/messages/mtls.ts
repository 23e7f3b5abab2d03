// The fixed messages of the certificate-binding codes (src/errors.ts holds the verify
// path's): data only, so a bundle whose code raises none of them carries none
// (src/keys/cert-binding.ts registers them).

export const MTLS_MESSAGES = {
  ERR_MTLS_CNF_MISSING: 'access token is not bound to a client certificate (cnf.x5t#S256)',
  ERR_MTLS_CERT_MISSING: 'no client certificate was presented',
  ERR_MTLS_CERT_MALFORMED: 'certificate thumbprint is malformed',
  ERR_MTLS_BINDING_MISMATCH: 'access token is bound to another client certificate',
} as const;
