// buildParts asks for the optional features a config uses in the order its settings were
// always checked, and a guard not given one fails to start naming the setting.
import { describe, expect, it } from 'vitest';
import { buildParts } from '../../src/worker/build.js';
import { parseConfig } from '../../src/worker/config.js';
import { allFeatures } from '../../src/worker/features/all.js';
import { givenFeatures } from '../../src/worker/features/registry.js';
import { buildSteps } from '../../src/worker/features/build-step.js';
import { AUD, HS_ISS, demoKeys } from './harness.js';

const b64u = (b: Uint8Array): string => btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

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
