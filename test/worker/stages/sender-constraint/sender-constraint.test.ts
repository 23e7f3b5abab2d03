// The sender-constraint stage and the DPoP stage's decisions that need no proof, on
// their own (a RequestContext and an identity, no guard): what a stage proved on the
// context decides; nothing the config says lets a bound token through unproven.
import { describe, expect, it } from 'vitest';
import type { Identity } from '../../../../src/worker/stage.js';
import { RequestContext } from '../../../../src/worker/context.js';
import { Counters } from '../../../../src/worker/counters.js';
import { parseDpop } from '../../../../src/worker/stages/dpop/dpop-config.js';
import { dpopStage } from '../../../../src/worker/stages/dpop/dpop-stage.js';
import { isolateDpopReplayStore } from '../../../../src/worker/dpop-replay/index.js';
import { IssuerIndex } from '../../../../src/worker/issuer-index.js';
import { parseIssuers } from '../../../../src/worker/issuers-config.js';
import { Observer } from '../../../../src/worker/stages/observe/observe.js';
import { RejectionLog } from '../../../../src/worker/stages/observe/rejection-log.js';
import { requestTarget } from '../../../../src/worker/request-url.js';
import { senderConstraintStage } from '../../../../src/worker/stages/sender-constraint/sender-constraint.js';
import { dpop } from '../../../../src/worker/stages/dpop/index.js';

const ISS = 'https://id.example.com';
const OTHER = 'https://other.example.com';
const JKT = '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I';
const issuers = parseIssuers([
  { issuer: ISS, audience: 'api', algorithms: ['ES256'], jwksUrl: 'https://id.example.com/jwks', dpop: 'required' },
  { issuer: OTHER, audience: 'api', algorithms: ['ES256'], jwksUrl: 'https://other.example.com/jwks' },
]);

function setup() {
  const lines: string[] = [];
  const observe = new Observer(
    {
      counters: new Counters(() => undefined, 1),
      rejections: new RejectionLog(
        (l) => lines.push(l),
        () => 1,
      ),
      analytics: undefined,
    },
    new IssuerIndex(issuers),
  );
  const request = new Request('https://api.example.com/x');
  const cx = new RequestContext(request, requestTarget(request.url), { waitUntil: () => undefined });
  return { cx, observe, lines };
}

function identity(payload: Record<string, unknown>, issuer = ISS): Identity {
  return { ok: true, anonymous: false, payload, header: () => ({ alg: 'ES256' }), issuer, timing: 'edgejwt;dur=0' };
}

describe('sender-constraint stage (sender-constraint.ts)', () => {
  it(
    'stage_sender_constraint_reads_cx_proven: a cnf.jkt token continues only when cx.proven.jkt matches; the ' +
      'refusal names the member',
    () => {
      const stage = senderConstraintStage('edgejwt', undefined);
      const { cx, observe, lines } = setup();
      const out = stage(cx, identity({ sub: 'a', cnf: { jkt: JKT } }), observe);
      expect(out).toMatchObject({ ok: false });
      expect(JSON.parse(lines[0]!)).toMatchObject({ code: 'unproven_confirmation', status: 401, claim: 'cnf.jkt' });
      cx.proven.jkt = JKT;
      expect(stage(cx, identity({ sub: 'a', cnf: { jkt: JKT } }), observe)).toBeUndefined();
      expect(stage(cx, identity({ sub: 'a' }), observe)).toBeUndefined();
    },
  );

  it('stage_sender_constraint_x5t_from_mtls: cnf x5t#S256 passes once the mTLS stage set cx.proven.x5t to it', () => {
    const stage = senderConstraintStage('edgejwt', ['ES256'], dpop.answers);
    const { cx, observe } = setup();
    const id = identity({ sub: 'a', cnf: { 'x5t#S256': 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' } });
    const refused = stage(cx, id, observe) as { ok: false; response: Response };
    expect(refused.response.headers.get('www-authenticate')).toMatch(/^Bearer realm="edgejwt", error="invalid_token"/);
    cx.proven.x5t = 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2';
    expect(stage(cx, id, observe)).toBeUndefined();
  });
});

describe('DPoP stage without a proof (dpop-stage.ts)', () => {
  const config = { issuers, realm: 'edgejwt', clockTolerance: 0, dpop: parseDpop({ replay: 'isolate' }, issuers)! };
  const stage = dpopStage({
    config,
    store: isolateDpopReplayStore(),
    nonces: undefined,
    now: Date.now,
    log: () => undefined,
  });

  it(
    "stage_dpop_bearer_to_required_refused: a bearer token of a required issuer stops here; another issuer's " +
      'continues',
    () => {
      const { cx, observe, lines } = setup();
      const out = stage(cx, identity({ sub: 'a' }), observe) as { ok: false; response: Response };
      expect(out.response.status).toBe(401);
      expect(out.response.headers.get('www-authenticate')).toBe(
        'DPoP realm="edgejwt", error="invalid_token", error_description="A DPoP-bound access token and a DPoP ' +
          'proof are required", algs="ES256 EdDSA Ed25519 RS256 PS256"',
      );
      expect(JSON.parse(lines[0]!)).toMatchObject({ code: 'dpop_required', iss: ISS });
      expect(stage(cx, identity({ sub: 'a' }, OTHER), observe)).toBeUndefined();
    },
  );

  it('stage_dpop_scheme_needs_dpop_issuer: the DPoP scheme with a token of an issuer without dpop is refused', () => {
    const { cx, observe, lines } = setup();
    cx.scheme = 'dpop';
    const out = stage(cx, identity({ sub: 'a' }, OTHER), observe) as { ok: false; response: Response };
    expect(out.response.status).toBe(401);
    expect(JSON.parse(lines[0]!)).toMatchObject({ code: 'dpop_not_accepted' });
  });
});
