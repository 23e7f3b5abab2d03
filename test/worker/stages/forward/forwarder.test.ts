// The forwarding stage (src/worker/stages/forward/forward.ts) on its own: a Forwarder built from the
// guard's parts (build.ts) forwards an outcome the earlier stages produced, to the
// configured origin only, with the guard's identity headers and nobody else's.
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeSegment } from '../../../../src/b64.js';
import type { GuardParts } from '../../../../src/worker/build.js';
import { startGuard } from '../../../../src/worker/start.js';
import { tokenSources } from '../../../../src/worker/stages/credentials/index.js';
import { payloadHeaderValue } from '../../../../src/worker/stages/forward/payload-header.js';
import { defaultStages } from '../../../../src/worker/stages/index.js';
import { ANONYMOUS, type AuthOutcome } from '../../../../src/worker/context.js';
import { Forwarder, type ForwardParts } from '../../../../src/worker/stages/forward/forward.js';
import { IssuerIndex } from '../../../../src/worker/issuer-index.js';
import { Observer } from '../../../../src/worker/stages/observe/observe.js';
import { b64u } from '../../../shared/jwt-mint.js';
import { ISS, ORIGIN, baseConfig, demoKeys, jwksOf, mockNet, type Keys, type Net } from '../../harness.js';
import { context } from '../../stage-harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

async function forwarderFor(
  extra: Record<string, unknown> = {},
): Promise<{ forwarder: Forwarder; parts: GuardParts; fwd: ForwardParts; net: Net }> {
  const net = mockNet(jwksOf(k.ed, k.rs));
  const config = baseConfig(k, { forwardPayload: 'X-Jwt-Payload', ...extra });
  const { parts } = await startGuard(
    { GUARD_CONFIG: JSON.stringify(config), HS_KEY: b64u(k.hs.secret!) },
    { fetch: net.fetch, log: () => undefined },
    undefined,
    defaultStages,
  );
  const fwd: ForwardParts = {
    config: parts.config,
    fetch: parts.fetch,
    tokens: tokenSources,
    service: undefined,
    payloadHeader: payloadHeaderValue,
    assertion: undefined,
  };
  return { forwarder: new Forwarder(fwd, new Observer(parts, new IssuerIndex(parts.config.issuers))), parts, fwd, net };
}

function identity(payload: Record<string, unknown>): AuthOutcome & { ok: true } {
  const full = { iss: ISS, aud: 'api', ...payload };
  return {
    ok: true,
    anonymous: false,
    payload: full,
    header: () => ({ alg: 'EdDSA' }),
    issuer: ISS,
    timing: 'verify;dur=1',
  };
}

/** A client request carrying its own copies of the guard's headers, in several spellings. */
const spoofing = (path = '/api/x') =>
  context(path, {
    headers: {
      authorization: 'Bearer a.b.c',
      cookie: 'session=a.b.c; other=1',
      'X-Auth-Sub': 'mallory',
      x_auth_sub: 'mallory',
      'X-Jwt-Payload': 'forged',
    },
  });

const seenBy = async (res: Response) => (await res.json()) as { headers: Record<string, string>; path: string };

describe('forwarding stage (forward.ts)', () => {
  it(
    'stage_forward_identity_headers: the verified claims and payload replace every client copy; the token ' +
      'stays by default',
    async () => {
      const { forwarder, parts } = await forwarderFor();
      const payload = { sub: 'alice', scope: 'read' };
      const res = await forwarder.forward(spoofing(), identity(payload), '/api/x');
      expect(res.status).toBe(200);
      expect(res.headers.get('server-timing')).toContain('verify;dur=1');
      const { headers, path } = await seenBy(res);
      expect(path).toBe('/api/x');
      expect(headers['x-auth-sub']).toBe('alice');
      expect(headers['x-auth-scope']).toBe('read');
      expect(headers['x_auth_sub']).toBeUndefined();
      const forwarded = headers['x-jwt-payload']!;
      expect(JSON.parse(new TextDecoder().decode(decodeSegment(forwarded, 0, forwarded.length)))).toEqual({
        iss: ISS,
        aud: 'api',
        ...payload,
      });
      expect(headers.authorization).toBe('Bearer a.b.c');
      expect(parts.counters.get('accepted')).toBe(1);
    },
  );

  it(
    'stage_forward_token_dropped: forwardToken false drops ' + 'the token header and cookie, other cookies stay',
    async () => {
      const { forwarder } = await forwarderFor({ forwardToken: false });
      const { headers } = await seenBy(await forwarder.forward(spoofing(), identity({ sub: 'alice' }), '/api/x'));
      expect(headers.authorization).toBeUndefined();
      expect(headers.cookie).toBe('other=1');
    },
  );

  it(
    'stage_forward_configured_origin_only: a path that reads ' + 'as another host still goes to the configured origin',
    async () => {
      const { forwarder, net } = await forwarderFor();
      await forwarder.forward(spoofing('/x'), identity({ sub: 'alice' }), '//evil.example/x');
      expect(net.calls).toHaveLength(1);
      expect(new URL(net.calls[0]!.url).origin).toBe(ORIGIN);
      expect(new URL(net.calls[0]!.url).pathname).toBe('//evil.example/x');
    },
  );

  it(
    'stage_forward_claim_not_forwardable_401: a claim that ' + 'cannot travel in a header is a 401 and nothing is sent',
    async () => {
      const { forwarder, parts, net } = await forwarderFor();
      const res = await forwarder.forward(spoofing(), identity({ sub: 'al\nice' }), '/api/x');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      expect(parts.counters.get('rejected:claim_not_forwardable')).toBe(1);
      expect(net.calls).toHaveLength(0);
    },
  );

  it(
    'stage_forward_anonymous_strips_identity: an anonymous pass is forwarded without identity headers, client ' +
      'copies removed',
    async () => {
      const { forwarder, parts } = await forwarderFor();
      const { headers } = await seenBy(
        await forwarder.forward(spoofing('/health'), ANONYMOUS as AuthOutcome & { ok: true }, '/health'),
      );
      expect(headers['x-auth-sub']).toBeUndefined();
      expect(headers['x_auth_sub']).toBeUndefined();
      expect(headers['x-jwt-payload']).toBeUndefined();
      expect(parts.counters.get('public')).toBe(1);
    },
  );

  it('stage_forward_origin_error_502: an origin that cannot be reached is a 502, counted', async () => {
    const { forwarder, parts, fwd } = await forwarderFor();
    fwd.fetch = () => Promise.reject(new TypeError('connection refused'));
    const res = await forwarder.forward(spoofing(), identity({ sub: 'alice' }), '/api/x');
    expect(res.status).toBe(502);
    expect(parts.counters.get('origin_error')).toBe(1);
  });
});
