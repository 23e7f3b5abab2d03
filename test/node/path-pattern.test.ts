// The path syntax GUARD_CONFIG accepts (src/worker/stages/path/path-pattern.ts), as parseConfig
// applies it: glob forms are refused naming the spelling that works.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/worker/config.js';
import { pathPatternProblem } from '../../src/worker/stages/path/path-pattern.js';

const issuers = [
  { issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example.com/jwks' },
];
const refusal = (config: object): string => {
  try {
    parseConfig({ issuers, ...config });
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return 'accepted';
};

describe('path patterns in GUARD_CONFIG', () => {
  it('guard_refuses_unsupported_path_patterns', () => {
    expect(refusal({ publicPaths: ['/static/**'] })).toBe(
      'GUARD_CONFIG publicPaths[0]: only one * at the end is supported: write "/static/*" for every path that ' +
        'starts with /static/, or an exact path',
    );
    expect(refusal({ publicPaths: ['/api/*/health'] })).toMatch(
      /publicPaths\[0\]: only one \* at the end is supported: write "\/api\/\*"/,
    );
    expect(refusal({ publicPaths: ['/health?x=1'] })).toMatch(/publicPaths\[0\]: a path has no query string/);
    expect(refusal({ rules: [{ pathPrefix: '/static/*', auth: 'none' }] })).toMatch(
      /rules\[0\]\.pathPrefix: a pathPrefix is a plain prefix without wildcards: write "\/static\/"/,
    );
    expect(refusal({ publicPaths: ['/health', '/static/*'], rules: [{ pathPrefix: '/static/', auth: 'none' }] })).toBe(
      'accepted',
    );
  });

  it('a pattern is accepted exactly when it has no ?, and no * but (for a public path) one at the end', () => {
    const segment = fc.stringMatching(/^[a-z*?]{0,6}$/);
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('publicPath' as const, 'pathPrefix' as const),
        (segments, kind) => {
          const p = `/${segments.join('/')}`;
          const stars = [...p].filter((c) => c === '*').length;
          const ok = !p.includes('?') && (stars === 0 || (kind === 'publicPath' && stars === 1 && p.endsWith('*')));
          expect(pathPatternProblem(p, kind) === undefined).toBe(ok);
        },
      ),
    );
  });
});
