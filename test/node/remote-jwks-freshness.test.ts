// The library's verify cache is bounded by the freshness of the key set that proved a
// result (issue 22). Node only: it moves the system clock with Vitest's fake timers,
// which the runtimes' test shim (Deno, Bun, Chromium) does not provide.
import { describe, expect, it, vi } from 'vitest';
import { createRemoteJWKSet, createVerifier } from '../../src/index.js';
import { claims, codeOf, mint } from '../shared/jwt-mint.js';
import { URL_, keyWithKid, sets } from '../shared/remote-jwks-fakes.js';

describe('remote JWKS: a key set gone stale', () => {
  it('cache_bounded_by_key_set_freshness', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const a = await keyWithKid('EdDSA', 'a');
      const b = await keyWithKid('EdDSA', 'b');
      const f = sets([a.jwk], [b.jwk]); // max-age=60 on each
      const v = createVerifier({
        algorithms: ['EdDSA'],
        jwks: createRemoteJWKSet(URL_, { fetch: f }),
        cache: { ttl: 3600 },
      });
      const ta = await mint(a, claims(), { kid: 'a' });
      expect(await codeOf(() => v.verify(ta))).toBe('OK');
      vi.setSystemTime(Date.now() + 59_000);
      expect(v.verifySync(ta).payload.sub).toBeDefined(); // a cache hit: no promise needed
      vi.setSystemTime(Date.now() + 2_000);
      // The set went stale: the result is not served from the cache; the refetched set lacks a.
      expect(await codeOf(() => v.verify(ta))).toBe('ERR_JWKS_NO_MATCHING_KEY');
      expect(f.calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
