// The mTLS stage (src/worker/stages/mtls/mtls-stage.ts) in the whole guard: RFC 8705 certificate-bound
// tokens checked against request.cf.tlsClientAuth, with the real openssl-made DER
// certificate of test/vectors/mtls/ (its SHA-256 as the hex fingerprint Cloudflare gives).
import { describe, expect, it } from 'vitest';
import cert from '../../../vectors/mtls/client_cert.json';
import type { Identity } from '../../../../src/worker/stage.js';
import { RequestContext } from '../../../../src/worker/context.js';
import { Counters } from '../../../../src/worker/counters.js';
import { IssuerIndex } from '../../../../src/worker/issuer-index.js';
import { parseIssuers } from '../../../../src/worker/issuers-config.js';
import { mtlsStage } from '../../../../src/worker/stages/mtls/mtls-stage.js';
import { Observer } from '../../../../src/worker/stages/observe/observe.js';
import { RejectionLog } from '../../../../src/worker/stages/observe/rejection-log.js';
import { requestTarget } from '../../../../src/worker/request-url.js';
import { AUD, baseConfig, demoKeys, HS_ISS, makeGuard, token, type Keys } from '../../harness.js';

/** The DER bytes of the vector's PEM, hashed as Cloudflare does: lower-case hex SHA-256. */
async function fingerprintHex(): Promise<string> {
  const b64 = cert.pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const der = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', der));
  return [...d].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Another certificate's digest: one bit of the real one flipped. */
function otherFingerprint(hex: string): string {
  return (Number.parseInt(hex[0]!, 16) ^ 1).toString(16) + hex.slice(1);
}

function config(k: Keys, mode: 'required' | 'allowed'): Record<string, unknown> {
  const base = baseConfig(k);
  const issuers = (base.issuers as Record<string, unknown>[]).map((is) =>
    is.issuer === HS_ISS ? { ...is, mtls: mode } : is,
  );
  return { ...base, issuers };
}

const presented = (fingerprint: string, certVerified = 'SUCCESS', certRevoked = '0') => ({
  tlsClientAuth: { certPresented: '1', certVerified, certRevoked, certFingerprintSHA256: fingerprint },
});
const placeholder = {
  tlsClientAuth: { certPresented: '0', certVerified: 'NONE', certRevoked: '0', certFingerprintSHA256: '' },
};

async function send(mode: 'required' | 'allowed', claims: Record<string, unknown>, cf: unknown) {
  const k = await demoKeys();
  const g = await makeGuard(k, { config: config(k, mode) });
  const t = await token(k.hs, claims);
  const res = await g.guard.handle(
    new Request('https://api.example.com/data', { headers: { authorization: `Bearer ${t}` }, cf } as RequestInit),
    { waitUntil: () => undefined },
  );
  return { res, logs: g.logs, body: await res.text(), headers: res.headers };
}

const bound = { cnf: { 'x5t#S256': cert.x5tS256 } };

describe('mTLS stage: certificate-bound tokens (RFC 8705) in workerd', () => {
  it(
    'mtls_bound_token_with_its_certificate_passes: bound + matching verified certificate -> 200 (required and ' +
      'allowed)',
    async () => {
      const fp = await fingerprintHex();
      expect(fp).toBe(cert.sha256sumOfDer);
      for (const mode of ['required', 'allowed'] as const) {
        const { res } = await send(mode, bound, presented(fp));
        expect(res.status).toBe(200);
      }
      // Cloudflare's docs show lower case; an upper-case fingerprint names the same certificate.
      expect((await send('required', bound, presented(fp.toUpperCase()))).res.status).toBe(200);
    },
  );

  it(
    'mtls_wrong_certificate_refused: another certificate -> 401 invalid_token, ERR_MTLS_BINDING_MISMATCH, no ' +
      'fingerprint in the answer or log',
    async () => {
      const fp = await fingerprintHex();
      for (const mode of ['required', 'allowed'] as const) {
        const { res, body, logs, headers } = await send(mode, bound, presented(otherFingerprint(fp)));
        expect(res.status).toBe(401);
        expect(headers.get('www-authenticate')).toContain('error="invalid_token"');
        const all = body + logs.join('\n') + headers.get('www-authenticate');
        expect(all).toContain('ERR_MTLS_BINDING_MISMATCH');
        expect(all).not.toContain(fp.slice(8, 40));
        expect(all).not.toContain(cert.x5tS256);
      }
    },
  );

  it(
    'mtls_no_certificate_refused: a bound token without a certificate -> 401 (no tlsClientAuth, or the ' +
      'placeholder)',
    async () => {
      for (const mode of ['required', 'allowed'] as const) {
        for (const cf of [undefined, placeholder]) {
          const { res, logs } = await send(mode, bound, cf);
          expect(res.status).toBe(401);
          expect(logs.join('\n')).toContain('ERR_MTLS_CERT_MISSING');
        }
      }
    },
  );

  it(
    'mtls_unverified_certificate_refused: a matching certificate the edge did not verify (self-signed, ' +
      'expired, revoked) -> 401',
    async () => {
      const fp = await fingerprintHex();
      for (const cf of [
        presented(fp, 'FAILED:self signed certificate'),
        presented(fp, 'FAILED:certificate has expired'),
        presented(fp, 'NONE'),
        presented(fp, 'SUCCESS', '1'),
      ]) {
        const { res, logs } = await send('required', bound, cf);
        expect(res.status).toBe(401);
        expect(logs.join('\n')).toContain('mtls_cert_unverified');
      }
    },
  );

  it(
    'mtls_required_refuses_unbound_token: "required" with a token that carries no x5t#S256 -> 401 ' +
      'ERR_MTLS_CNF_MISSING, even with a good certificate; "allowed" lets it through',
    async () => {
      const fp = await fingerprintHex();
      const required = await send('required', {}, presented(fp));
      expect(required.res.status).toBe(401);
      expect(required.logs.join('\n')).toContain('ERR_MTLS_CNF_MISSING');
      expect((await send('required', { cnf: { jkt: 'x' } }, presented(fp))).res.status).toBe(401);
      expect((await send('allowed', {}, presented(fp))).res.status).toBe(200);
      expect((await send('allowed', {}, undefined)).res.status).toBe(200);
    },
  );

  it(
    'mtls_malformed_binding_refused: "allowed" never ignores a malformed x5t#S256 (not a string, not 32 ' + 'bytes)',
    async () => {
      const fp = await fingerprintHex();
      for (const x5t of [42, null, 'abc', cert.x5tS256 + 'A']) {
        const { res } = await send('allowed', { cnf: { 'x5t#S256': x5t } }, presented(fp));
        expect(res.status).toBe(401);
      }
    },
  );

  it(
    'mtls_proven_x5t_on_context: the stage alone records the proven thumbprint (cx.proven.x5t), and nothing ' +
      'when it refuses',
    async () => {
      const fp = await fingerprintHex();
      const issuers = parseIssuers([
        { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'K', mtls: 'required' },
      ]);
      const observe = new Observer(
        {
          counters: new Counters(() => undefined, 1),
          rejections: new RejectionLog(
            () => undefined,
            () => 1,
          ),
          analytics: undefined,
        },
        new IssuerIndex(issuers),
      );
      const stage = mtlsStage(issuers, 'edgejwt');
      const run = (cf: unknown) => {
        const request = new Request('https://api.example.com/data', { cf } as RequestInit);
        const cx = new RequestContext(request, requestTarget(request.url), { waitUntil: () => undefined });
        const id: Identity = {
          ok: true,
          anonymous: false,
          payload: { iss: HS_ISS, ...bound },
          header: () => ({ alg: 'HS256' }),
          issuer: HS_ISS,
          timing: 'edgejwt;dur=0',
        };
        return { cx, out: stage(cx, id, observe) };
      };
      const good = run(presented(fp));
      expect(good.out).toBeUndefined();
      expect(good.cx.proven).toEqual({ x5t: cert.x5tS256 });
      const bad = run(presented(otherFingerprint(fp)));
      expect(bad.out).toMatchObject({ ok: false });
      expect(bad.cx.proven).toEqual({});
    },
  );
});
