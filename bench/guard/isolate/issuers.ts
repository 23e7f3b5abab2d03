// The guard configuration's issuers as the library-only Workers of the isolate
// bench (edgejwt-min, edgejwt-steps) turn them into createVerifier issuers: key
// sets inline, an HS secret read from its binding.
import type { Algorithm } from '../../../src/index.ts';

export interface IssuerConfig {
  issuer: string;
  audience: string | string[];
  algorithms: string[];
  jwks?: { keys: object[] };
  secretBinding?: string;
}

function fromB64u(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** One configured issuer as a createVerifier issuer. */
export function issuerOptions(c: IssuerConfig, env: Record<string, unknown>) {
  return {
    issuer: c.issuer,
    audience: c.audience,
    algorithms: c.algorithms as Algorithm[],
    ...(c.secretBinding !== undefined ? { key: fromB64u(String(env[c.secretBinding])) } : { jwks: c.jwks as never }),
  };
}
