// `edgejwt check-config` and `build-guard` run the library's option code next to the guard's
// own policy derivation and refuse a config for which they differ (src/cli/policy-agreement.ts):
// a future change to options.ts the guard missed stops a deploy. Here the library's policyData
// is made to differ (as such a change would), and both commands refuse; node only (vi.mock).
import { describe, expect, it, vi } from 'vitest';
import { checkGuardConfig } from '../../src/cli/check-config.js';
import { guardEntry } from '../../src/cli/guard-entry.js';

vi.mock('../../src/options.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/options.js')>();
  // A library that now also caps maxTokenAge at a day, say: the guard's derivation does not know.
  return { ...real, policyData: (...args: Parameters<typeof real.policyData>) => {
    const data = real.policyData(...args);
    return data.claims.maxTokenAge === undefined ? data : { ...data, claims: { ...data.claims, maxTokenAge: Math.min(data.claims.maxTokenAge, 86_400) } };
  } };
});

const RAW = { issuers: [{ issuer: 'https://a.example', audience: 'api', algorithms: ['HS256'], secretBinding: 'K0' }, { issuer: 'https://b.example', audience: 'api', algorithms: ['HS256'], secretBinding: 'K1', maxTokenAge: 604_800 }], origin: 'builtin:echo', cache: { jwks: false } };
const SCOPE = { vars: {}, kvBindings: new Set<string>(), serviceBindings: new Set<string>(), where: '' };

describe('deploy-time policy agreement', () => {
  it('policies_disagreeing_fail_check_config_and_build_guard: a config whose derived policy differs from the library\'s is refused by check-config and build-guard', () => {
    const checked = checkGuardConfig(RAW, SCOPE);
    expect(checked.ok).toBe(false);
    expect(checked.errors.join('\n')).toMatch(/issuers\[1\]: the guard would check this issuer's tokens differently/);
    expect(() => guardEntry(RAW)).toThrow(/issuers\[1\]/);
    // An issuer the change does not touch still passes.
    const one = { ...RAW, issuers: [RAW.issuers[0]] };
    expect(checkGuardConfig(one, SCOPE).ok).toBe(true);
    expect(guardEntry(one).code).toContain('compiledWorker(');
  });
});
