// createGuard(config, { stages }): a config that uses a stage the guard was not given refuses
// every request with a 500 naming the setting, never runs without it; given the stage, the same
// config starts. Ported from the retired compiled entry's tests (issue 34), same cases.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  admin,
  cors,
  createGuard,
  dpop,
  forwardPayload,
  keySets,
  kvTiers,
  remoteKeys,
  resource,
  rules,
  serviceOrigin,
  tokenSources,
} from '../../src/worker/api.js';
import type { GuardStage } from '../../src/worker/stage.js';
import { AUD, CACHE_KEY, FaultyKV, HS_ISS, ISS, JWKS_URL, TestCtx } from './harness.js';
import { bearer, demoKeys, jwksOf, kv, token } from './harness.js';
import type { Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

const b64u = (b: Uint8Array): string =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const HS_ISSUER = { issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' };
const HS = { issuers: [HS_ISSUER], origin: 'builtin:echo', cache: { jwks: false } };
const req = (t?: string): Request => new Request('https://api.example.com/orders', t === undefined ? {} : bearer(t));
const guardOf = (raw: unknown, stages: readonly GuardStage[]) => createGuard(raw as never, { stages });

/** The config_error lines the guard writes (console.error without a log of the caller's). */
function configErrors(): { setting: string }[] {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((l: string) => void lines.push(l));
  const parsed = (): { setting: string }[] => lines.map((l) => JSON.parse(l) as { setting: string });
  return new Proxy([], { get: (_, p) => (parsed() as never)[p as never] });
}

describe('createGuard given only some stages', () => {
  it('stage_not_given_fails_closed: a fetched key set without remoteKeys refuses naming issuers', async () => {
    const errors = configErrors();
    const issuer = { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwksUrl: JWKS_URL };
    const raw = { issuers: [issuer], origin: 'builtin:echo', cache: { jwks: false } };
    const t = await token(k.ed);
    expect((await guardOf(raw, []).fetch(req(t), {}, new TestCtx())).status).toBe(500);
    expect(errors[0]!.setting).toMatch(/^issuers/);
    // Given the stages, the same config starts (no token: 401, and no key set is fetched).
    expect((await guardOf(raw, [keySets, remoteKeys]).fetch(req(), {}, new TestCtx())).status).toBe(401);
  });

  it('kv_tiers_not_given_fails_closed: cache.verify and CACHE_KEY without kvTiers refuse', async () => {
    const raw = { ...HS, cache: { jwks: false, verify: ['HS256'] } };
    const t = await token(k.hs);
    const verifyKv = new FaultyKV(kv.VERIFY_CACHE);
    const env = { HS_KEY: b64u(k.hs.secret!), CACHE_KEY, VERIFY_CACHE: verifyKv };
    const errors = configErrors();
    expect((await guardOf(raw, []).fetch(req(t), env, new TestCtx())).status).toBe(500);
    expect([...errors].map((e) => e.setting)).toEqual(['CACHE_KEY']);
    expect(verifyKv.gets).toBe(0);
    const ctx = new TestCtx();
    expect((await guardOf(raw, [kvTiers]).fetch(req(t), env, ctx)).status).toBe(200);
    await ctx.settle();
    // The first verify of the token asked L2 (the fixed-key tag of a secret issuer) before the library.
    expect(verifyKv.gets).toBe(1);
  });

  // cors, admin, rules, publicPaths, a key set, another token source, a service origin, forwardPayload.
  it('core_stage_not_given_fails_closed: each optional stage not given refuses, naming the setting', async () => {
    const API = { fetch: async () => new Response('from the service') };
    const env = { HS_KEY: b64u(k.hs.secret!), ADMIN_SECRET: 'an-admin-secret-of-16+', API };
    const t = await token(k.hs);
    const edIssuer = { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: jwksOf(k.ed) };
    const inline = { issuers: [edIssuer], origin: 'builtin:echo', cache: { jwks: false } };
    const cases: [raw: Record<string, unknown>, setting: string, given: GuardStage][] = [
      [{ ...HS, cors: { allowOrigins: ['https://app.example.com'] } }, 'cors', cors],
      [{ ...HS, admin: { path: '/_guard', secretBinding: 'ADMIN_SECRET' } }, 'admin', admin],
      [{ ...HS, rules: [{ pathPrefix: '/orders', scopes: ['orders'] }] }, 'rules', rules],
      [{ ...HS, publicPaths: ['/orders'] }, 'publicPaths', rules],
      [inline, 'issuers[0] (jwks)', keySets],
      [{ ...HS, tokenSources: [{ header: 'Authorization' }, { cookie: 'session' }] }, 'tokenSources', tokenSources],
      [{ ...HS, tokenSources: [{ header: 'X-Token' }] }, 'tokenSources', tokenSources],
      [{ ...HS, origin: { service: 'API' } }, 'origin.service', serviceOrigin],
      [{ ...HS, forwardPayload: 'X-Auth-Payload' }, 'forwardPayload', forwardPayload],
    ];
    for (const [raw, setting, given] of cases) {
      const errors = configErrors();
      expect((await guardOf(raw, []).fetch(req(t), env, new TestCtx())).status).toBe(500);
      expect([...errors].map((e) => e.setting)).toEqual([setting]);
      vi.restoreAllMocks();
      // Given the stage, the same config starts and answers (not a 500).
      expect((await guardOf(raw, [given]).fetch(req(t), env, new TestCtx())).status).not.toBe(500);
    }
  });

  it(
    'unread_section_names_its_stage: a section whose stage was not given is never parsed, and the guard ' +
      'refuses naming it',
    async () => {
      const t = await token(k.hs);
      const env = { HS_KEY: b64u(k.hs.secret!) };
      const raw = { ...HS, cors: { allowOrigins: ['not an origin'] } };
      let errors = configErrors();
      expect((await guardOf(raw, []).fetch(req(t), env, new TestCtx())).status).toBe(500);
      expect([...errors].map((e) => e.setting)).toEqual(['cors']);
      vi.restoreAllMocks();
      // Given the stage, its parser reads the section and names the bad member.
      errors = configErrors();
      expect((await guardOf(raw, [cors]).fetch(req(t), env, new TestCtx())).status).toBe(500);
      expect([...errors].map((e) => e.setting)).toEqual(['cors.allowOrigins[0]']);
    },
  );

  it(
    'sections_set_without_their_stage_as_before: an issuer dpop needs the dpop stage, a resource is refused ' +
      'before the issuers, rules: [] needs no stage',
    async () => {
      const t = await token(k.hs);
      const env = { HS_KEY: b64u(k.hs.secret!) };
      const dpopIssuer = {
        issuers: [{ ...HS_ISSUER, dpop: 'required' }],
        origin: 'builtin:echo',
        cache: { jwks: false },
      };
      // The issuer's dpop alone (no top-level dpop section): refused naming dpop, never run without DPoP.
      let errors = configErrors();
      expect((await guardOf(dpopIssuer, []).fetch(req(t), env, new TestCtx())).status).toBe(500);
      expect([...errors].map((e) => e.setting)).toEqual(['dpop']);
      vi.restoreAllMocks();
      // Given the stage, its parser names what is missing: the section itself.
      errors = configErrors();
      expect((await guardOf(dpopIssuer, [dpop]).fetch(req(t), env, new TestCtx())).status).toBe(500);
      expect([...errors].map((e) => e.setting)).toEqual(['dpop']);
      vi.restoreAllMocks();
      // resource without its stage, with an issuer that leaves its audience to resource.id: the resource is named,
      // not the issuer's missing audience.
      const noAud = {
        ...HS,
        issuers: [{ ...HS_ISSUER, audience: undefined }],
        resource: { id: 'https://api.example.com' },
      };
      errors = configErrors();
      expect((await guardOf(noAud, []).fetch(req(t), env, new TestCtx())).status).toBe(500);
      expect([...errors].map((e) => e.setting)).toEqual(['resource']);
      vi.restoreAllMocks();
      expect((await guardOf(noAud, [resource]).fetch(req(t), env, new TestCtx())).status).not.toBe(500);
      // An empty rule list is no rules: it needs no rules stage.
      expect((await guardOf({ ...HS, rules: [] }, []).fetch(req(t), env, new TestCtx())).status).toBe(200);
    },
  );
});
