// A compiled entry's policy literal is trusted only as far as bindsAsConfigured
// (src/worker/issuer-settings.ts) ties it to the config literal next to it. The binding must
// be exact: the literal the library's option code makes from the config is accepted, and a
// literal with any one member changed (to a value that is not equal) is refused, so no claim
// check can drift away from the config unseen. fast-check over configs and mutations.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyData } from '../../src/options.js';
import { parseConfig } from '../../src/worker/config.js';
import { bindsAsConfigured } from '../../src/worker/issuer-settings.js';
import { checkedPolicies } from '../../src/worker/policy-literal.js';

const NAMES = ['https://a.example', 'https://b.example', 'urn:c'];
const AUDS = ['api', 'other'];

/** One HS issuer entry of GUARD_CONFIG with the checks a config may set. */
const issuerEntry = fc
  .record({
    issuer: fc.subarray(NAMES, { minLength: 1 }),
    audience: fc.subarray(AUDS),
    algorithms: fc.subarray(['HS256', 'HS384', 'HS512'], { minLength: 1 }),
    typ: fc.option(fc.constantFrom('JWT', 'at+jwt', 'application/AT+JWT', 'example/jwt'), { nil: undefined }),
    maxTokenAge: fc.option(fc.integer({ min: 1, max: 86_400 }), { nil: undefined }),
    profile: fc.boolean(),
  })
  .map(({ issuer, audience, algorithms, typ, maxTokenAge, profile }) => {
    const withProfile = profile && audience.length > 0 && (typ === undefined || /at\+jwt$/i.test(typ));
    return {
      issuer: issuer.length === 1 ? issuer[0] : issuer,
      ...(audience.length === 0 ? { claims: { tenant: 'acme' } } : { audience }),
      algorithms,
      secretBinding: 'HS_KEY',
      ...(typ === undefined ? {} : { typ }),
      ...(maxTokenAge === undefined ? {} : { maxTokenAge }),
      ...(withProfile ? { profile: 'at+jwt' } : {}),
    };
  });

/** Values a member of a literal could be changed to: every type a ClaimPolicy member has, and near misses. */
const otherValue = fc.oneof(
  fc.constantFrom<unknown>(undefined, null, true, false, 0, 1, 30, 86_400, '', 'jwt', 'at+jwt', 'api', 'https://a.example', [], ['api'], ['scope']),
  fc.subarray([...NAMES, ...AUDS]).map((m) => new Set(m)),
  fc.subarray(['HS256', 'HS384', 'HS512', 'RS256', 'none']),
);

describe('the policy literal binding (issuer-settings.ts bindsAsConfigured)', () => {
  it('policy_literal_binding_is_exact: the checked literal binds; any member changed to an unequal value, removed or added does not', () => {
    fc.assert(
      fc.property(issuerEntry, fc.integer({ min: 0, max: 300 }), fc.nat(), otherValue, fc.constantFrom('change', 'remove', 'add'), (entry, clockTolerance, pick, value, how) => {
        const config = parseConfig({ issuers: [entry], clockTolerance });
        const [is] = config.issuers;
        const [data] = checkedPolicies(config) as [PolicyData];
        expect(bindsAsConfigured(is!, data, clockTolerance)).toBe(true);
        // One member of the claims, or the algorithms list.
        const members = [...Object.keys(data.claims), 'algorithms'];
        const name = members[pick % members.length]!;
        const claims: Record<string, unknown> = { ...data.claims };
        let changed: PolicyData;
        if (name === 'algorithms') changed = { ...data, algorithms: (how === 'change' ? value : undefined) as string[] };
        else {
          if (how === 'remove') delete claims[name];
          else if (how === 'add') claims[`${name}X`] = value;
          else claims[name] = value;
          changed = { ...data, claims: claims as unknown as PolicyData['claims'] };
        }
        expect(bindsAsConfigured(is!, changed, clockTolerance)).toBe(isDeepStrictEqual(changed, data));
      }),
      { numRuns: 600 },
    );
  });
});
