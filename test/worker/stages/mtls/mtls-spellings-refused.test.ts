// Probes of the mTLS stage (RFC 8705) through the guard: spellings of the
// fingerprint and of Cloudflare's verdict, odd `cf` shapes, a bound token at an issuer
// without `mtls`. Each must be refused unless the verified certificate matches.
import { describe, expect, it } from 'vitest';
import cert from '../../../vectors/mtls/client_cert.json';
import { baseConfig, demoKeys, HS_ISS, makeGuard, token } from '../../harness.js';

async function guardFor(mode: 'required' | 'allowed' | undefined) {
  const k = await demoKeys();
  const base = baseConfig(k);
  const issuers = (base.issuers as Record<string, unknown>[]).map((is) =>
    is.issuer === HS_ISS && mode !== undefined ? { ...is, mtls: mode } : is,
  );
  const g = await makeGuard(k, { config: { ...base, issuers } });
  return async (claims: Record<string, unknown>, cf: unknown) => {
    const t = await token(k.hs, claims);
    return (
      await g.guard.handle(
        new Request('https://api.example.com/data', { headers: { authorization: `Bearer ${t}` }, cf } as RequestInit),
        { waitUntil: () => undefined },
      )
    ).status;
  };
}

const auth = (a: Record<string, unknown>) => ({
  tlsClientAuth: {
    certPresented: '1',
    certVerified: 'SUCCESS',
    certRevoked: '0',
    certFingerprintSHA256: cert.sha256sumOfDer,
    ...a,
  },
});
const bound = { cnf: { 'x5t#S256': cert.x5tS256 } };

describe('mTLS: only the verified certificate the token names passes', () => {
  it(
    "mtls_probe_spellings_and_shapes: only a verified, unrevoked certificate whose SHA-256 is the token's " +
      'x5t#S256 passes',
    async () => {
      for (const mode of ['required', 'allowed'] as const) {
        const send = await guardFor(mode);
        expect(await send(bound, auth({})), mode).toBe(200);
        const fp = cert.sha256sumOfDer;
        for (const cf of [
          auth({ certVerified: 'success' }),
          auth({ certVerified: 'SUCCESS ' }),
          auth({ certVerified: true }),
          auth({ certVerified: 'FAILED:self signed certificate' }),
          auth({ certVerified: undefined }),
          auth({ certRevoked: '1' }),
          auth({ certFingerprintSHA256: fp.match(/../g)!.join(':') }),
          auth({ certFingerprintSHA256: ` ${fp}` }),
          auth({ certFingerprintSHA256: fp.slice(0, 62) }),
          auth({ certFingerprintSHA256: cert.x5tS256 }),
          auth({ certFingerprintSHA256: [fp] }),
          { tlsClientAuth: fp },
          { tlsClientAuth: null },
          undefined,
        ]) {
          expect(await send(bound, cf), `${mode} ${JSON.stringify(cf)}`).toBe(401);
        }
        // Token side: padded, standard base64, hex, or x5t (SHA-1) instead of x5t#S256.
        for (const cnf of [
          { 'x5t#S256': `${cert.x5tS256}=` },
          { 'x5t#S256': cert.x5tS256.replace(/-/g, '+').replace(/_/g, '/') },
          { 'x5t#S256': fp },
          { x5t: cert.x5tS256 },
          { 'X5T#S256': cert.x5tS256 },
        ]) {
          const same = cnf['x5t#S256' as keyof typeof cnf] === cert.x5tS256;
          expect(await send({ cnf }, auth({})), `${mode} ${JSON.stringify(cnf)}`).toBe(same ? 200 : 401);
        }
      }
    },
  );

  it(
    'mtls_bound_token_without_mtls_issuer_refused: a certificate-bound token of an issuer without mtls, even ' +
      'with the right certificate, is refused',
    async () => {
      const send = await guardFor(undefined);
      expect(await send(bound, auth({}))).toBe(401);
      expect(await send({}, auth({}))).toBe(200);
    },
  );

  it(
    'mtls_cert_revoked_must_be_known: a matching, verified certificate whose revocation status is missing or ' +
      'not "0" is refused',
    async () => {
      const send = await guardFor('allowed');
      for (const certRevoked of [undefined, '', 1, 0, '01', 'unknown']) {
        expect(await send(bound, auth({ certRevoked })), String(certRevoked)).toBe(401);
      }
      expect(await send(bound, auth({ certRevoked: '0' }))).toBe(200);
    },
  );
});
