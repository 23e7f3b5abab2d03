// The claim-check stage (src/worker/stages/claims/token-checks.ts) on its own: a verified token
// against its issuer's `claims` and the matched rules, and the answer to a token the
// verify threw on, with a CheckScope built from parsed config sections.
import { describe, expect, it } from 'vitest';
import { b64u } from '../../../shared/jwt-mint.js';
import { JwtError } from '../../../../src/errors.js';
import type { Verified } from '../../../../src/worker/context.js';
import { IssuerIndex } from '../../../../src/worker/issuer-index.js';
import { parseIssuers } from '../../../../src/worker/issuers-config.js';
import { checkRules, parseRules } from '../../../../src/worker/stages/route/rules.js';
import { checkVerified, verifyFailed, type CheckScope } from '../../../../src/worker/stages/claims/token-checks.js';
import { context, observer, type Observed } from '../../stage-harness.js';

const ISS = 'https://id.example.com';
const issuers = parseIssuers([
  { issuer: ISS, audience: 'api', claims: { tenant: 'acme' }, algorithms: ['HS256'], secretBinding: 'K' },
]);
const rules = parseRules([{ pathPrefix: '/admin/', scopes: ['admin'] }], new Set([ISS]));

function scope(): { g: CheckScope; o: Observed; logs: string[] } {
  const o = observer(issuers);
  const logs: string[] = [];
  return {
    g: {
      config: { realm: 'edgejwt', jwksCooldownMs: 30_000, sections: {} },
      observe: o.observe,
      issuers: new IssuerIndex(issuers),
      log: (l) => logs.push(l),
      checkRules,
    },
    o,
    logs,
  };
}

/** A request to /admin/x that matched rules[0], carrying `token`. */
function admin(token = 'h.p.s') {
  const cx = context('/admin/x');
  cx.matched = { rules, names: ['rules[0]'], auth: 'required' };
  cx.token = token;
  return cx;
}

const verified = (claims: Record<string, unknown>): Verified => ({
  payload: { iss: ISS, aud: 'api', sub: 'alice', ...claims },
  level: 'verify',
  header: { alg: 'HS256', typ: 'JWT' },
});

/** A token that only looks like one: enough for the log's unverified iss. */
const unsigned = (payload: Record<string, unknown>) =>
  `${b64u(new TextEncoder().encode('{"alg":"HS256"}'))}.` +
  `${b64u(new TextEncoder().encode(JSON.stringify(payload)))}.c2ln`;

function refused(out: ReturnType<typeof checkVerified>): Response {
  if (out.ok) throw new Error('expected a refusal');
  return out.response;
}

describe('claim-check stage (token-checks.ts)', () => {
  it("stage_checks_pass: the issuer's claims and the rule hold: the identity, naming the issuer", () => {
    const { g } = scope();
    const out = checkVerified(admin(), verified({ tenant: 'acme', scope: 'read admin' }), g);
    if (!out.ok || out.anonymous) throw new Error('expected an identity');
    expect(out.issuer).toBe(ISS);
    expect(out.payload.sub).toBe('alice');
    expect(out.header()).toEqual({ alg: 'HS256', typ: 'JWT' });
  });

  it(
    'stage_checks_claim_miss_401: an issuer claim that does not hold is a 401 invalid_token, counted and ' +
      'logged with the claim',
    () => {
      const { g, o } = scope();
      const res = refused(checkVerified(admin(), verified({ tenant: 'other', scope: 'admin' }), g));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      expect(o.counters.get('rejected:claim_mismatch')).toBe(1);
      expect(JSON.parse(o.lines[0]!)).toMatchObject({
        code: 'claim_mismatch',
        status: 401,
        claim: 'tenant',
        iss: ISS,
        alg: 'HS256',
      });
    },
  );

  it("stage_checks_rule_miss_403: a rule's missing scope is a 403 insufficient_scope naming the scope", () => {
    const { g, o } = scope();
    const res = refused(checkVerified(admin(), verified({ tenant: 'acme', scope: 'read' }), g));
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope".*scope="admin"/);
    expect(o.counters.get('forbidden')).toBe(1);
  });

  it(
    'stage_checks_keys_unavailable_503: a key-source failure is a 503 with Retry-After from jwks.cooldownMs, ' +
      'never a 401',
    () => {
      for (const code of ['ERR_JWKS_FETCH_FAILED', 'ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID'] as const) {
        const { g, o, logs } = scope();
        const res = refused(verifyFailed(admin(unsigned({ iss: ISS })), new JwtError(code), g));
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('30');
        expect(o.counters.get('unavailable')).toBe(1);
        expect(JSON.parse(logs[0]!)).toEqual({ edgejwt: 'unavailable', code });
      }
    },
  );

  it(
    'stage_checks_wrong_issuer_code: a failed token naming an issuer nobody configured is logged and counted ' +
      "as wrong_issuer; a configured one keeps the verify's code",
    () => {
      const stranger = scope();
      const res = refused(
        verifyFailed(
          admin(unsigned({ iss: 'https://elsewhere.example' })),
          new JwtError('ERR_JWKS_NO_MATCHING_KEY'),
          stranger.g,
        ),
      );
      expect(res.status).toBe(401);
      expect(stranger.o.counters.get('rejected:wrong_issuer')).toBe(1);
      expect(JSON.parse(stranger.o.lines[0]!)).toMatchObject({
        code: 'wrong_issuer',
        status: 401,
        iss: 'https://elsewhere.example',
      });

      const known = scope();
      refused(verifyFailed(admin(unsigned({ iss: ISS })), new JwtError('ERR_JWS_SIGNATURE_INVALID'), known.g));
      expect(known.o.counters.get('rejected:ERR_JWS_SIGNATURE_INVALID')).toBe(1);
      expect(JSON.parse(known.o.lines[0]!)).toMatchObject({ code: 'ERR_JWS_SIGNATURE_INVALID', iss: ISS });
    },
  );

  it(
    "stage_checks_server_fault_thrown: a fault that is not the token's is thrown on (the guard answers 500), " +
      'never a 401',
    () => {
      const { g } = scope();
      expect(() => verifyFailed(admin(), new JwtError('ERR_WASM_CORE'), g)).toThrow(JwtError);
      expect(() => verifyFailed(admin(), new TypeError('bug'), g)).toThrow(TypeError);
    },
  );
});
