// featuresFor (features/registry.ts) decides which features `edgejwt build-guard` imports
// into a compiled entry; buildParts decides which it asks for when the guard starts. For
// every combination of the settings that use an optional stage (cors, admin, rules,
// publicPaths, an inline key set, a fetched key set, the KV verify cache, a cookie token
// source, a service origin, the payload header) both name the
// same features: a compiled entry never lacks one its guard needs (an outage) nor is
// given one its guard would not set up.
import { describe, expect, it } from 'vitest';
import { buildParts } from '../../src/worker/build.js';
import { parseConfig } from '../../src/worker/config.js';
import { allFeatures } from '../../src/worker/features/all.js';
import { featuresFor, givenFeatures, type FeatureSource } from '../../src/worker/features/registry.js';
import { buildSteps } from '../../src/worker/features/build-step.js';
import { AUD, CACHE_KEY, HS_ISS, ISS, JWKS_URL, demoKeys, jwksOf, kv } from './harness.js';

const b64u = (b: Uint8Array): string => btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('features_for_matches_what_the_guard_asks', () => {
  it('every combination of cors, admin, rules, publicPaths, jwks, jwksUrl, cache.verify, tokenSources, origin.service and forwardPayload: featuresFor = the features buildParts asks for', async () => {
    const k = await demoKeys();
    const env = { HS_KEY: b64u(k.hs.secret!), ADMIN_SECRET: 'an-admin-secret-of-16+', CACHE_KEY, VERIFY_CACHE: kv.VERIFY_CACHE, JWKS_CACHE: kv.JWKS_CACHE, API: { fetch: async () => new Response() } };
    let configs = 0;
    for (let bits = 0; bits < 1024; bits++) {
      const on = (i: number): boolean => (bits & (1 << i)) !== 0;
      const issuers: Record<string, unknown>[] = [{ issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' }];
      if (on(4)) issuers.push({ issuer: 'https://inline.example.com', audience: AUD, algorithms: ['EdDSA'], jwks: jwksOf(k.ed) });
      if (on(5)) issuers.push({ issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwksUrl: JWKS_URL });
      const raw: Record<string, unknown> = { issuers, origin: 'builtin:echo', cache: { jwks: false, verify: on(6) ? 'all' : false } };
      if (on(0)) raw.cors = { allowOrigins: ['https://app.example.com'] };
      if (on(1)) raw.admin = { path: '/__guard/stats', secretBinding: 'ADMIN_SECRET' };
      if (on(2)) raw.rules = [{ pathPrefix: '/orders', scopes: ['orders'] }];
      if (on(3)) raw.publicPaths = ['/health'];
      if (on(7)) raw.tokenSources = [{ header: 'authorization' }, { cookie: 'session' }];
      if (on(8)) raw.origin = { service: 'API' };
      if (on(9)) raw.forwardPayload = 'X-Auth-Payload';
      const config = parseConfig(raw);
      const asked = new Set<string>();
      const recording: FeatureSource = (name, setting) => {
        asked.add(name);
        return allFeatures(name, setting);
      };
      await buildParts(config, env, { log: () => undefined }, recording);
      expect([...asked].sort(), JSON.stringify(raw)).toEqual([...featuresFor(config)].sort());
      configs++;
    }
    expect(configs).toBe(1024);
  });
});

describe('feature_build_steps_keep_the_check_order', () => {
  it('a config using every late feature: buildParts asks for them in the order the settings were always checked, and a guard given none fails on the first (admin)', async () => {
    const k = await demoKeys();
    const env = { HS_KEY: b64u(k.hs.secret!), ADMIN_SECRET: 'an-admin-secret-of-16+', REVOKE_SECRET: 'a-revocation-secret-of-16+', API: { fetch: async () => new Response() } };
    const raw = {
      issuers: [{ issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY', dpop: 'required' }],
      origin: { service: 'API' },
      cache: { jwks: false },
      admin: { path: '/__guard/stats', secretBinding: 'ADMIN_SECRET' },
      tokenSources: [{ header: 'authorization' }, { cookie: 'session' }],
      forwardPayload: 'X-Auth-Payload',
      dpop: { replay: 'isolate' },
      revocation: { path: '/__guard/revoke', secretBinding: 'REVOKE_SECRET', store: 'isolate' },
      cors: { allowOrigins: ['https://app.example.com'] },
      rules: [{ pathPrefix: '/orders', scopes: ['orders'] }],
    };
    const config = parseConfig(raw);
    expect(buildSteps(config)).toEqual([
      ['admin', 'admin'],
      ['serviceOrigin', 'origin.service'],
      ['tokenSources', 'tokenSources'],
      ['forwardPayload', 'forwardPayload'],
      ['dpop', 'dpop'],
      ['revocation', 'revocation'],
      ['cors', 'cors'],
      ['rules', 'rules'],
    ]);
    const asked: string[] = [];
    const parts = await buildParts(config, env, { log: () => undefined }, (name, setting) => {
      asked.push(name);
      return allFeatures(name, setting);
    });
    expect(asked).toEqual(['admin', 'serviceOrigin', 'tokenSources', 'forwardPayload', 'dpop', 'revocation', 'cors', 'rules']);
    // dpop proves a key, then the sender constraint, then revocation last.
    expect(parts.afterVerify).toHaveLength(3);
    expect(parts.reserved).toBeDefined();
    await expect(buildParts(config, env, { log: () => undefined }, givenFeatures({}))).rejects.toMatchObject({ setting: 'admin' });
  });
});
