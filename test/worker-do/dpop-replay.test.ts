// src/worker/dpop-replay/: DPoP replay keys accepted exactly once within their window,
// through sharded Durable Objects (DPOP_REPLAY, test/worker-do/wrangler.toml) and the
// "isolate" store. Keys are real dpopReplayKey outputs.
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { dpopReplayKey } from '../../src/index.js';
import {
  DpopReplayShard,
  durableObjectDpopReplayStore,
  isolateDpopReplayStore,
  type ReplayNamespace,
} from '../../src/worker/dpop-replay/index.js';

const ns = env.DPOP_REPLAY as ReplayNamespace;
const nowS = () => Math.floor(Date.now() / 1000);
const JKT = '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I';
let serial = 0;
const freshKey = () => dpopReplayKey(JKT, `jti-${Date.now()}-${serial++}`);

describe('DPoP replay store', () => {
  it('dpop_replay_same_key_twice_refused (Durable Object and isolate store)', async () => {
    for (const store of [durableObjectDpopReplayStore(ns), isolateDpopReplayStore()]) {
      const key = freshKey();
      expect(await store.checkAndRemember(key, nowS() + 65)).toBe(true);
      expect(await store.checkAndRemember(key, nowS() + 65)).toBe(false);
      expect(await store.checkAndRemember(freshKey(), nowS() + 65)).toBe(true);
    }
  });

  it(
    'dpop_replay_concurrent_views: two stores on one ' + 'namespace, 40 racing checks of one key, exactly one true',
    async () => {
      const a = durableObjectDpopReplayStore(ns);
      const b = durableObjectDpopReplayStore(ns);
      const key = freshKey();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).checkAndRemember(key, nowS() + 65)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    },
  );

  it('dpop_replay_expiry: a key is remembered until its expiry, then forgotten (isolate clock)', async () => {
    let t = Date.now();
    const store = isolateDpopReplayStore({ now: () => t });
    const key = freshKey();
    const exp = Math.floor(t / 1000) + 65;
    expect(await store.checkAndRemember(key, exp)).toBe(true);
    t += 64_000;
    expect(await store.checkAndRemember(key, exp)).toBe(false);
    t += 2_000;
    expect(await store.checkAndRemember(key, Math.floor(t / 1000) + 65)).toBe(true);
  });

  it(
    'dpop_replay_shard_storage_pruned: the alarm sweeps ' + 'lapsed keys from storage; live ones stay refused',
    async () => {
      const store = durableObjectDpopReplayStore(ns, { shardChars: 1 });
      const short = freshKey();
      let long = freshKey();
      while (long[0] !== short[0]) long = dpopReplayKey(JKT, `same-shard-${serial++}`); // same shard
      expect(await store.checkAndRemember(short, nowS() + 5)).toBe(true);
      expect(await store.checkAndRemember(long, nowS() + 600)).toBe(true);
      const stub = ns.get(ns.idFromName(`dpop-replay:${short[0]}`) as never);
      const keys = await runInDurableObject(stub, async (_i, state) => {
        const later = new DpopReplayShard(state, undefined, { now: () => Date.now() + 10_000 });
        await state.blockConcurrencyWhile(async () => {});
        await later.alarm();
        return [...(await state.storage.list({ prefix: 'k:' })).keys()];
      });
      expect(keys).toEqual([`k:${long}`]);
      expect(await store.checkAndRemember(long, nowS() + 600)).toBe(false);
    },
  );

  it(
    'dpop_replay_input_checked: not a replay key, expiry ' + 'in the past or over an hour ahead, a full window',
    async () => {
      for (const store of [durableObjectDpopReplayStore(ns), isolateDpopReplayStore()]) {
        await expect(store.checkAndRemember('short', nowS() + 60)).rejects.toThrow(/replay key/);
        await expect(store.checkAndRemember(`${freshKey().slice(0, 42)}=`, nowS() + 60)).rejects.toThrow(/replay key/);
        await expect(store.checkAndRemember(freshKey(), nowS() - 1)).rejects.toThrow(/past/);
        await expect(store.checkAndRemember(freshKey(), nowS() + 7200)).rejects.toThrow(/hour/);
        await expect(store.checkAndRemember(freshKey(), nowS() + 60.5)).rejects.toThrow(/whole seconds/);
      }
      const tiny = isolateDpopReplayStore({ maxKeys: 1 });
      expect(await tiny.checkAndRemember(freshKey(), nowS() + 60)).toBe(true);
      await expect(tiny.checkAndRemember(freshKey(), nowS() + 60)).rejects.toThrow(/full/);
    },
  );

  it('dpop_replay_fail_closed: an object that throws, hangs or answers garbage rejects (never true)', async () => {
    const broken = (fetch: () => Promise<Response>): ReplayNamespace => ({
      idFromName: () => 'id',
      get: () => ({ fetch }),
    });
    for (const fetch of [
      () => Promise.reject(new Error('unreachable')),
      () => new Promise<Response>(() => {}),
      async () => new Response('x', { status: 500 }),
      async () => Response.json({ outcome: true }),
      async () => Response.json(null),
      async () => new Response('<html>'),
    ]) {
      const store = durableObjectDpopReplayStore(broken(fetch), { timeoutMs: 20 });
      await expect(store.checkAndRemember(freshKey(), nowS() + 60)).rejects.toThrow();
    }
  });
});
