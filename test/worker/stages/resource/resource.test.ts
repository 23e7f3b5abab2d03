// The resource stage (issue 36, RFC 9728 / RFC 8707 / RFC 9470): the metadata served without a
// token at its one spelling, `resource_metadata` on every challenge (from the config, never the
// Host), resource.id as the default audience, and the rules' step-up checked on every request,
// cached verdicts included.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGuard, keySets, remoteKeys, resource, rules } from '../../../../src/worker/api.js';
import {
  AUD,
  CACHE_KEY,
  HS_ISS,
  ISS,
  JWKS_URL,
  ORIGIN,
  TestCtx,
  bearer,
  demoKeys,
  makeGuard,
  nowSeconds,
  token,
  type Keys,
  type Made,
} from '../../harness.js';
import { dpopClient, dpopInit, proof } from '../dpop/dpop-helpers.js';

const ID = 'https://mcp.example.com/mcp';
const META_PATH = '/.well-known/oauth-protected-resource/mcp';
const META_URL = `https://mcp.example.com${META_PATH}`;
const PARAM = `resource_metadata="${META_URL}"`;
const b64u = (b: Uint8Array): string =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const HS = { issuer: HS_ISS, algorithms: ['HS256'], secretBinding: 'HS_KEY' };

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

function raw(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuers: [HS],
    origin: ORIGIN,
    resource: { id: ID, scopes: ['tools:call', 'tools:admin'], documentation: 'https://mcp.example.com/docs' },
    ...extra,
  };
}
const forResource = (extra: Record<string, unknown> = {}): Promise<string> => token(k.hs, { aud: ID, ...extra });
const originCalls = (g: Made): number => g.net.calls.filter((c) => c.url.startsWith(ORIGIN)).length;

describe('protected resource metadata (RFC 9728)', () => {
  it(
    'resource_metadata_served_without_token: the document at /.well-known/oauth-protected-resource + the id ' +
      'path, nothing forwarded',
    async () => {
      const g = await makeGuard(k, {
        config: raw({
          issuers: [HS, { issuer: [ISS, 'id.example.com'], audience: AUD, algorithms: ['EdDSA'], jwksUrl: JWKS_URL }],
        }),
      });
      const res = await g.send(META_PATH);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({
        resource: ID,
        // Each issuer's URL spellings; a bare host names no authorization server.
        authorization_servers: [HS_ISS, ISS],
        scopes_supported: ['tools:call', 'tools:admin'],
        bearer_methods_supported: ['header'],
        resource_documentation: 'https://mcp.example.com/docs',
      });
      expect(originCalls(g)).toBe(0);
    },
  );

  it(
    'resource_metadata_path_of_a_root_id_has_no_trailing_path: an origin-only id is served at the bare ' +
      'well-known path',
    async () => {
      const g = await makeGuard(k, { config: raw({ resource: { id: 'https://api.example.com' } }) });
      const res = await g.send('/.well-known/oauth-protected-resource');
      expect(res.status).toBe(200);
      expect(((await res.json()) as { resource: string }).resource).toBe('https://api.example.com');
    },
  );

  it('resource_metadata_methods: HEAD without a body, OPTIONS a preflight, POST 405 with Allow', async () => {
    const g = await makeGuard(k, { config: raw() });
    const head = await g.send(META_PATH, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const pre = await g.send(META_PATH, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    const post = await g.send(META_PATH, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(originCalls(g)).toBe(0);
  });

  it(
    'resource_metadata_dpop_members: dpop_* from the dpop ' + 'section, required only when every issuer requires it',
    async () => {
      const ed = { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwksUrl: JWKS_URL };
      const some = await makeGuard(k, {
        config: raw({ issuers: [HS, { ...ed, dpop: 'required' }], dpop: { replay: 'isolate', algorithms: ['ES256'] } }),
      });
      const doc = (await (await some.send(META_PATH)).json()) as Record<string, unknown>;
      expect(doc.dpop_signing_alg_values_supported).toEqual(['ES256']);
      expect(doc.dpop_bound_access_tokens_required).toBe(false);
      const all = await makeGuard(k, {
        config: raw({ issuers: [{ ...ed, dpop: 'required' }], dpop: { replay: 'isolate', algorithms: ['ES256'] } }),
      });
      expect(
        ((await (await all.send(META_PATH)).json()) as Record<string, unknown>).dpop_bound_access_tokens_required,
      ).toBe(true);
      const none = (await (await (await makeGuard(k, { config: raw() })).send(META_PATH)).json()) as Record<
        string,
        unknown
      >;
      expect(none).not.toHaveProperty('dpop_signing_alg_values_supported');
    },
  );

  it(
    'resource_metadata_other_spellings_never_forwarded: escapes, case, double slashes, ;params are 400/404 ' +
      'even with a token',
    async () => {
      const g = await makeGuard(k, { config: raw() });
      const t = await forResource();
      const spellings = [
        '/.well-known/oauth-protected-resource%2Fmcp',
        '/.well-known/oauth-protected-resource%2fmcp',
        '/.well-known/oauth-protected-resource//mcp',
        '//.well-known/oauth-protected-resource/mcp',
        '/.WELL-KNOWN/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource/MCP',
        '/.well-known/oauth-protected-resource/m%63p',
        '/.well-known/%6Fauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource/mcp;x',
      ];
      for (const s of spellings) {
        const res = await g.send(s, bearer(t));
        expect([400, 404], s).toContain(res.status);
      }
      expect(originCalls(g)).toBe(0);
    },
  );

  it(
    'resource_metadata_trailing_slash_is_another_resource: with a slash the path is an ordinary route (a token ' +
      'needed), never the document',
    async () => {
      const g = await makeGuard(k, { config: raw() });
      const res = await g.send(`${META_PATH}/`);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain(PARAM);
    },
  );
});

describe('resource_metadata on every challenge (RFC 9728 §5.1)', () => {
  it(
    'resource_metadata_on_401_and_403: missing, invalid, wrong audience and insufficient_scope challenges all ' +
      'point to the document',
    async () => {
      const g = await makeGuard(k, { config: raw({ rules: [{ pathPrefix: '/admin', scopes: ['tools:admin'] }] }) });
      const missing = await g.send('/tools');
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toBe(`Bearer realm="edgejwt", ${PARAM}`);
      const invalid = await g.send('/tools', bearer(`${await forResource()}x`));
      expect(invalid.status).toBe(401);
      expect(invalid.headers.get('www-authenticate')).toMatch(
        new RegExp(
          `^Bearer realm="edgejwt", error="invalid_token", error_description="[^"]+", ` +
            `${PARAM.replace(/[.?]/g, '\\$&')}$`,
        ),
      );
      const scope = await g.send('/admin', bearer(await forResource({ scope: 'tools:call' })));
      expect(scope.status).toBe(403);
      const challenge = scope.headers.get('www-authenticate')!;
      expect(challenge).toContain('error="insufficient_scope"');
      expect(challenge).toContain('scope="tools:admin"');
      expect(challenge).toContain(PARAM);
    },
  );

  it("resource_metadata_on_claim_not_forwardable: the forward stage's own 401 points to the document too", async () => {
    const g = await makeGuard(k, { config: raw({ forwardClaims: { groups: 'X-Auth-Groups' } }) });
    const res = await g.send('/tools', bearer(await forResource({ groups: ['two words'] })));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(PARAM);
    expect(originCalls(g)).toBe(0);
  });

  it(
    'resource_metadata_never_from_host: a request for another host, with forwarding headers, still gets the ' +
      'configured URL',
    async () => {
      const g = await makeGuard(k, { config: raw() });
      const res = await g.guard.handle(
        new Request('https://evil.example/tools', {
          headers: { 'x-forwarded-host': 'evil.example', forwarded: 'host=evil.example' },
        }),
        new TestCtx(),
      );
      expect(res.status).toBe(401);
      const challenge = res.headers.get('www-authenticate')!;
      expect(challenge).toContain(PARAM);
      expect(challenge).not.toContain('evil');
    },
  );

  it(
    'resource_metadata_on_dpop_challenges: both challenges of a missing token, and a DPoP refusal, carry it ' +
      'once each',
    async () => {
      const config = raw({
        issuers: [{ issuer: ISS, algorithms: ['EdDSA'], jwksUrl: JWKS_URL, dpop: 'required' }],
        dpop: { replay: 'isolate' },
      });
      const g = await makeGuard(k, { config });
      const missing = (await g.send('/tools')).headers.get('www-authenticate')!;
      expect(missing).toMatch(
        new RegExp(
          '^Bearer realm="edgejwt", resource_metadata="[^"]+", ' +
            'DPoP realm="edgejwt", algs="[^"]+", resource_metadata="[^"]+"$',
        ),
      );
      expect(missing.split(PARAM)).toHaveLength(3);
      const client = await dpopClient('ES256');
      const at = await token(k.ed, { aud: ID, cnf: { jkt: client.jkt }, jti: crypto.randomUUID() });
      // A proof for another method: invalid_dpop_proof.
      const res = await g.send(
        '/tools',
        dpopInit(at, await proof(client, 'POST', 'https://api.example.com/tools', at)),
      );
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(
        new RegExp(
          `^DPoP realm="edgejwt", error="invalid_dpop_proof", error_description="[^"]+", algs="[^"]+", ` +
            `${PARAM.replace(/[.?]/g, '\\$&')}$`,
        ),
      );
      // And the bound token with a good proof still reaches the origin.
      expect(
        (await g.send('/tools', dpopInit(at, await proof(client, 'GET', 'https://api.example.com/tools', at)))).status,
      ).toBe(200);
    },
  );

  it('no_resource_no_resource_metadata: without the section, challenges are as before', async () => {
    const g = await makeGuard(k, { config: { issuers: [{ ...HS, audience: AUD }], origin: ORIGIN } });
    expect((await g.send('/tools')).headers.get('www-authenticate')).toBe('Bearer realm="edgejwt"');
    expect((await g.send(META_PATH, bearer(await token(k.hs)))).status).toBe(200);
    expect(originCalls(g)).toBe(1);
  });
});

describe('tokens for this resource only (RFC 8707)', () => {
  it(
    'resource_id_is_default_audience: an issuer without audience takes resource.id; a token for another ' +
      'audience is refused',
    async () => {
      const g = await makeGuard(k, { config: raw() });
      expect((await g.send('/tools', bearer(await forResource()))).status).toBe(200);
      expect((await g.send('/tools', bearer(await forResource({ aud: [AUD, ID] })))).status).toBe(200);
      const other = await g.send('/tools', bearer(await forResource({ aud: 'https://other.example.com/mcp' })));
      expect(other.status).toBe(401);
      expect(other.headers.get('www-authenticate')).toContain(PARAM);
      expect((await g.send('/tools', bearer(await forResource({ aud: AUD })))).status).toBe(401);
    },
  );

  it("issuer_audience_replaces_resource_default: an issuer's own audience is the only one accepted", async () => {
    const g = await makeGuard(k, { config: raw({ issuers: [{ ...HS, audience: AUD }] }) });
    expect((await g.send('/tools', bearer(await forResource({ aud: AUD })))).status).toBe(200);
    expect((await g.send('/tools', bearer(await forResource({ aud: ID })))).status).toBe(401);
  });
});

describe('step-up (RFC 9470)', () => {
  const stepRules = [
    { pathPrefix: '/admin', acr: ['urn:example:mfa', 'phr'] },
    { pathPrefix: '/recent', maxAge: 300 },
    { pathPrefix: '/open', scopes: ['read'] },
  ];

  it(
    'step_up_acr_refused_then_passed: a token without an accepted acr gets 401 ' +
      'insufficient_user_authentication with acr_values',
    async () => {
      const g = await makeGuard(k, { config: raw({ rules: stepRules }) });
      for (const extra of [{}, { acr: 'pwd' }, { acr: ['urn:example:mfa'] }]) {
        const res = await g.send('/admin', bearer(await forResource(extra)));
        expect(res.status, JSON.stringify(extra)).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(
          `Bearer realm="edgejwt", error="insufficient_user_authentication", error_description="A stronger or ` +
            `more recent user authentication is required", acr_values="urn:example:mfa phr", ${PARAM}`,
        );
        expect(((await res.json()) as { error: string }).error).toBe('insufficient_user_authentication');
      }
      expect((await g.send('/admin', bearer(await forResource({ acr: 'phr' })))).status).toBe(200);
      const line = g.logs
        .map((l) => JSON.parse(l) as { edgejwt?: string; code?: string })
        .find((l) => l.edgejwt === 'rejected');
      expect(line?.code).toBe('insufficient_user_authentication');
    },
  );

  it(
    'step_up_max_age_refused_then_passed: an auth_time older than maxAge (or missing, or in the future) gets ' +
      'max_age',
    async () => {
      const g = await makeGuard(k, {
        config: { issuers: [{ ...HS, audience: AUD }], origin: ORIGIN, rules: stepRules },
      });
      const t = nowSeconds();
      for (const auth_time of [undefined, t - 301, t + 60, `${t}`]) {
        const res = await g.send('/recent', bearer(await token(k.hs, auth_time === undefined ? {} : { auth_time })));
        expect(res.status, String(auth_time)).toBe(401);
        const challenge = res.headers.get('www-authenticate')!;
        expect(challenge).toContain('error="insufficient_user_authentication"');
        expect(challenge).toContain('max_age="300"');
        // Without `resource`, no resource_metadata.
        expect(challenge).not.toContain('resource_metadata');
      }
      expect((await g.send('/recent', bearer(await token(k.hs, { auth_time: t - 10 })))).status).toBe(200);
    },
  );

  it(
    'step_up_checked_on_l1_hit: a token cached by a pass on a rule without step-up is refused where a rule ' +
      'asks acr',
    async () => {
      const g = await makeGuard(k, { config: raw({ rules: stepRules }) });
      const t = await forResource({ scope: 'read', acr: 'pwd' });
      const first = await g.send('/open', bearer(t));
      expect(first.status).toBe(200);
      const second = await g.send('/admin', bearer(t));
      expect(second.status).toBe(401);
      // The verify was answered by this isolate's L1: the step-up check ran after it anyway.
      expect(second.headers.get('server-timing')).toContain('desc="l1"');
      expect(second.headers.get('www-authenticate')).toContain('error="insufficient_user_authentication"');
    },
  );

  it(
    "step_up_checked_on_l2_hit: another isolate's KV verdict for the token does not skip the acr a rule " + 'asks',
    async () => {
      const config = raw({ rules: stepRules, cache: { verify: ['HS256'], verifyAdmission: 'always' } });
      const t = await forResource({ scope: 'read', acr: 'pwd', jti: crypto.randomUUID() });
      const first = await makeGuard(k, { config, env: { CACHE_KEY } });
      expect((await first.send('/open', bearer(t))).status).toBe(200);
      const other = await makeGuard(k, { config, env: { CACHE_KEY } });
      const res = await other.send('/admin', bearer(t));
      expect(res.status).toBe(401);
      expect(res.headers.get('server-timing')).toContain('desc="l2"');
      expect(res.headers.get('www-authenticate')).toContain('error="insufficient_user_authentication"');
    },
  );

  it(
    'step_up_settings_checked: acr must be scope tokens, maxAge a whole number of seconds, and a rule with ' +
      'auth none asks neither',
    async () => {
      for (const [rule, setting] of [
        [{ pathPrefix: '/a', acr: ['has space'] }, 'rules[0].acr[0]'],
        [{ pathPrefix: '/a', maxAge: 1.5 }, 'rules[0].maxAge'],
        [{ pathPrefix: '/a', maxAge: -1 }, 'rules[0].maxAge'],
        [{ pathPrefix: '/a', auth: 'none', acr: ['mfa'] }, 'rules[0]'],
      ] as const) {
        const lines: string[] = [];
        const g = createGuard(raw({ rules: [rule] }) as never, {
          stages: [rules, resource],
          log: (l) => lines.push(l),
        });
        expect(
          (await g.fetch(new Request('https://api.example.com/a'), { HS_KEY: b64u(k.hs.secret!) }, new TestCtx()))
            .status,
        ).toBe(500);
        expect((JSON.parse(lines.find((l) => l.includes('config_error'))!) as { setting: string }).setting).toBe(
          setting,
        );
      }
    },
  );
});

describe('the resource stage given or not', () => {
  it(
    'resource_stage_not_given_fails_closed: a config with resource and a guard without the stage refuses ' +
      'naming resource',
    async () => {
      const lines: string[] = [];
      const env = { HS_KEY: b64u(k.hs.secret!) };
      const g = createGuard(raw() as never, { stages: [keySets, remoteKeys], log: (l) => lines.push(l) });
      expect((await g.fetch(new Request(`https://api.example.com${META_PATH}`), env, new TestCtx())).status).toBe(500);
      expect((JSON.parse(lines.find((l) => l.includes('config_error'))!) as { setting: string }).setting).toBe(
        'resource',
      );
      const given = createGuard(raw() as never, { stages: [resource] });
      expect((await given.fetch(new Request(`https://api.example.com${META_PATH}`), env, new TestCtx())).status).toBe(
        200,
      );
      expect(
        (await given.fetch(new Request('https://api.example.com/tools'), env, new TestCtx())).headers.get(
          'www-authenticate',
        ),
      ).toContain(PARAM);
    },
  );
});
