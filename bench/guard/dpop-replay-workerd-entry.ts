// The Worker for bench/guard/dpop-replay-workerd.ts: the DPoP replay shard class, and a
// fetch that runs `n` checkAndRemember calls of one store (a fresh key each) per request.
import {
  DpopReplayShard,
  durableObjectDpopReplayStore,
  isolateDpopReplayStore,
  type DpopReplayStore,
  type ReplayNamespace,
} from '../../src/worker/dpop-replay/index.ts';
import { dpopReplayKey } from '../../src/dpop/proof.ts';

export { DpopReplayShard };

const JKT = '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I';
let serial = 0;
let isolate: DpopReplayStore = isolateDpopReplayStore();

export default {
  async fetch(request: Request, env: { DPOP_REPLAY: ReplayNamespace }): Promise<Response> {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n'));
    const which = url.searchParams.get('store');
    // A new isolate store well before it could fill (it holds 100,000 keys).
    if (serial > 50_000) [isolate, serial] = [isolateDpopReplayStore(), 0];
    // `do`: the default 2-character shard names (up to 4096 objects, most of them new to a short
    // run); `do-warm`: 1 character (64 objects, all created during the warm-up), so the time is a warm shard's.
    const store =
      which === 'do'
        ? durableObjectDpopReplayStore(env.DPOP_REPLAY)
        : which === 'do-warm'
          ? durableObjectDpopReplayStore(env.DPOP_REPLAY, { shardChars: 1 })
          : isolate;
    const expiresAt = Math.floor(Date.now() / 1000) + 120;
    const run = crypto.randomUUID();
    for (let i = 0; i < n; i++) {
      if (!(await store.checkAndRemember(dpopReplayKey(JKT, `${run}-${serial++}`), expiresAt)))
        return new Response('replayed?', { status: 500 });
    }
    return new Response('ok');
  },
};
