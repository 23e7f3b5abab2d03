// The stages a config uses are checked in the order its settings were always checked, and a guard
// not given one fails to start naming the setting; the chain runs in defaultStages' order.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/worker/config.js';
import { chainOf, startGuard } from '../../src/worker/start.js';
import { coreStages } from '../../src/worker/stages/core.js';
import { defaultStages } from '../../src/worker/stages/index.js';
import { neededStages } from '../../src/worker/stages/needs.js';
import { AUD, HS_ISS, demoKeys } from './harness.js';

const b64u = (b: Uint8Array): string =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

describe('feature_build_steps_keep_the_check_order', () => {
  it(
    'a config using every late stage: they are needed in one fixed order, and a guard given none fails on the ' +
      'first (admin)',
    async () => {
      const k = await demoKeys();
      const env = {
        HS_KEY: b64u(k.hs.secret!),
        ADMIN_SECRET: 'an-admin-secret-of-16+',
        REVOKE_SECRET: 'a-revocation-secret-of-16+',
        API: { fetch: async () => new Response() },
      };
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
      // The key-set stages first, then every optional section set, in the order GUARD_CONFIG writes them (where
      // admin always was), then the stages core settings switch on.
      expect(neededStages(config, env)).toEqual([
        ['admin', 'admin'],
        ['dpop', 'dpop'],
        ['revocation', 'revocation'],
        ['cors', 'cors'],
        ['rules', 'rules'],
        ['serviceOrigin', 'origin.service'],
        ['tokenSources', 'tokenSources'],
        ['forwardPayload', 'forwardPayload'],
      ]);
      await expect(startGuard(env, { log: () => undefined }, raw, [])).rejects.toMatchObject({ setting: 'admin' });
      const guard = await startGuard(env, { log: () => undefined }, raw, defaultStages);
      // admin answers its path before any other stage.
      const res = await guard.handle(new Request('https://api.example.com/__guard/stats'), {
        waitUntil: () => undefined,
      });
      expect(res.status).toBe(401);
    },
  );

  it(
    'default_stages_are_in_chain_order: the chain of defaultStages is defaultStages, the core stages are among ' +
      'them, and a stage of your own runs last',
    () => {
      expect(chainOf(defaultStages)).toEqual(defaultStages);
      for (const s of coreStages) expect(defaultStages).toContain(s);
      const mine = { name: 'mine', build: () => undefined };
      expect(chainOf([mine, ...defaultStages])).toEqual([...defaultStages, mine]);
      // Given none, the core stages alone, in chain order.
      expect(chainOf([])).toEqual(defaultStages.filter((s) => coreStages.includes(s)));
    },
  );
});
