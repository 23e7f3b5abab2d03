// The KV verify cache's write policy: by default a token's entry is written on its
// second sighting in an isolate (one-off tokens cost no KV write), and at most
// cache.verifyWritesPerMinute writes per isolate per minute; what is held back is counted.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WriteAdmission } from '../../../../src/worker/l2-admission.js';
import {
  CACHE_KEY,
  FaultyKV,
  baseConfig,
  bearer,
  demoKeys,
  freshJwksUrl,
  kv,
  makeGuard,
  token,
  type Keys,
} from '../../harness.js';
import { parseConfig } from '../../../../src/worker/config.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

function config(cache: Record<string, unknown>): Record<string, unknown> {
  const c = baseConfig(k, { cache: { verify: 'all', kvTimeoutMs: 25, ...cache } });
  (c.issuers as Record<string, unknown>[])[0]!.jwksUrl = freshJwksUrl();
  return c;
}

describe('WriteAdmission', () => {
  it('seen-twice: the first verify of a token is held back, the second is written', () => {
    const a = new WriteAdmission({ mode: 'seen-twice', perMinute: 100, capacity: 10 });
    expect(a.waiting('t1')).toBe(false);
    expect(a.decide('t1', 0)).toBe('first-sighting');
    expect(a.waiting('t1')).toBe(true);
    expect(a.decide('t1', 1)).toBe('write');
    expect(a.waiting('t1')).toBe(false);
  });

  it('always: every verify is written', () => {
    const a = new WriteAdmission({ mode: 'always', perMinute: 100, capacity: 10 });
    expect(a.decide('t1', 0)).toBe('write');
    expect(a.decide('t2', 0)).toBe('write');
    expect(a.waiting('t2')).toBe(false);
  });

  it('the budget caps writes per minute and refills the next minute', () => {
    const a = new WriteAdmission({ mode: 'always', perMinute: 2, capacity: 10 });
    expect([a.decide('a', 0), a.decide('b', 10), a.decide('c', 59_999)]).toEqual(['write', 'write', 'over-budget']);
    expect(a.decide('c', 60_000)).toBe('write');
  });

  it('a token held back by the budget is still a candidate at its next sighting', () => {
    const a = new WriteAdmission({ mode: 'seen-twice', perMinute: 1, capacity: 10 });
    a.decide('a', 0);
    a.decide('a', 0); // written
    a.decide('b', 0);
    expect(a.decide('b', 0)).toBe('over-budget');
    expect(a.waiting('b')).toBe(true);
    expect(a.decide('b', 60_000)).toBe('write');
  });

  it('memory stays bounded: the seen set starts over when full', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 6 }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 20 }),
        (tokens, capacity) => {
          const a = new WriteAdmission({ mode: 'seen-twice', perMinute: 1e9, capacity });
          let waiting = 0;
          for (const t of tokens) a.decide(t, 0);
          for (const t of new Set(tokens)) if (a.waiting(t)) waiting++;
          expect(waiting).toBeLessThanOrEqual(capacity);
        },
      ),
    );
  });
});

describe('the guard with the default admission (seen-twice)', () => {
  it('a token seen once is not written; its second request (an L1 hit) writes it once', async () => {
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    const g = await makeGuard(k, { config: config({}), env: { CACHE_KEY, VERIFY_CACHE: fk } });
    const t = await token(k.ed);
    expect((await g.send('/x', bearer(t))).headers.get('server-timing')).toContain('desc="verify"');
    expect(fk.puts).toHaveLength(0);
    expect(g.guard.counters.get('l2_write_deferred')).toBe(1);
    expect((await g.send('/x', bearer(t))).headers.get('server-timing')).toContain('desc="l1"');
    expect(fk.puts).toHaveLength(1);
    expect(g.guard.counters.get('l2_write')).toBe(1);
    await g.send('/x', bearer(t));
    expect(fk.puts).toHaveLength(1);
  });

  it('with the L1 off, the second full verify writes', async () => {
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    const g = await makeGuard(k, { config: config({ l1Max: 0 }), env: { CACHE_KEY, VERIFY_CACHE: fk } });
    const t = await token(k.rs);
    await g.send('/x', bearer(t));
    expect(fk.puts).toHaveLength(0);
    await g.send('/x', bearer(t));
    expect(fk.puts).toHaveLength(1);
  });

  it('cache.verifyWritesPerMinute caps the writes and counts the rest', async () => {
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    const g = await makeGuard(k, {
      config: config({ verifyAdmission: 'always', verifyWritesPerMinute: 2 }),
      env: { CACHE_KEY, VERIFY_CACHE: fk },
    });
    for (let i = 0; i < 5; i++)
      expect((await g.send('/x', bearer(await token(k.ed, { sub: `u${i}` })))).status).toBe(200);
    expect(fk.puts).toHaveLength(2);
    expect(g.guard.counters.get('l2_write_over_budget')).toBe(3);
  });

  it('a token that fails verification is never a write candidate', async () => {
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    const g = await makeGuard(k, { config: config({}), env: { CACHE_KEY, VERIFY_CACHE: fk } });
    const bad = (await token(k.ed)).slice(0, -4) + 'AAAA';
    for (let i = 0; i < 3; i++) expect((await g.send('/x', bearer(bad))).status).toBe(401);
    expect(fk.puts).toHaveLength(0);
    expect(g.guard.counters.get('l2_write_deferred')).toBe(0);
  });
});

describe('config', () => {
  it('defaults: seen-twice, 60 writes a minute; unknown values are refused with the setting named', () => {
    const c = parseConfig(config({}));
    expect(c.cache.verifyAdmission).toBe('seen-twice');
    expect(c.cache.verifyWritesPerMinute).toBe(60);
    expect(() => parseConfig(config({ verifyAdmission: 'sometimes' }))).toThrow(
      expect.objectContaining({ setting: 'cache.verifyAdmission' }),
    );
    expect(() => parseConfig(config({ verifyWritesPerMinute: 0 }))).toThrow(
      expect.objectContaining({ setting: 'cache.verifyWritesPerMinute' }),
    );
  });
});
