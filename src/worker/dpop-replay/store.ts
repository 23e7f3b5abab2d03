// What the guard's DPoP stage calls: `checkAndRemember(replayKey, expiresAt)`, true
// exactly once per key within its window. Backed by sharded Durable Objects, or (the
// "isolate" store, for tests) a ReplayWindow in this isolate. Anything but a clear
// answer rejects: the caller refuses the request (fail closed), never accepts it.

import { ReplayWindow, replayInputProblem } from './window.js';

/**
 * A DPoP replay store. `expiresAt` is in seconds: the last moment the proof could be
 * accepted (its `iat` + maxAge + clockTolerance). Rejects on bad input, a full shard,
 * or a store that does not answer within its deadline.
 *
 * @example
 * if (!(await store.checkAndRemember(proof.replayKey, proof.iat + 65))) return refuse('replayed');
 */
export interface DpopReplayStore {
  checkAndRemember(key: string, expiresAt: number): Promise<boolean>;
}

/** The slice of a DurableObjectNamespace used here. */
export interface ReplayNamespace {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/**
 * The "isolate" replay store: a ReplayWindow in this isolate (not shared with other
 * isolates); `window` to keep one across stores (the guard keeps one per isolate).
 *
 * @example
 * const store = isolateDpopReplayStore();
 * await store.checkAndRemember(proof.replayKey, proof.iat + 65); // true, then false
 */
export function isolateDpopReplayStore(
  options: { maxKeys?: number; now?: () => number; window?: ReplayWindow } = {},
): DpopReplayStore {
  const window = options.window ?? new ReplayWindow(options.maxKeys);
  const now = options.now ?? Date.now;
  return {
    async checkAndRemember(key, expiresAt) {
      const nowS = Math.floor(now() / 1000);
      const problem = replayInputProblem(key, expiresAt, nowS);
      if (problem !== undefined) throw new TypeError(`dpop replay: ${problem}`);
      const { outcome } = window.checkAndRemember(key, expiresAt, nowS);
      if (outcome === 'full') throw new RangeError('dpop replay: store is full');
      return outcome === 'fresh';
    },
  };
}

/**
 * Sharded Durable Object replay store: the shard is `idFromName("dpop-replay:" +
 * first shardChars characters of the key)` (1..4, default 2: up to 4096 objects).
 *
 * @example
 * const store = durableObjectDpopReplayStore(env.DPOP_REPLAY, { timeoutMs: 500 });
 */
export function durableObjectDpopReplayStore(
  namespace: ReplayNamespace,
  options: { shardChars?: number; timeoutMs?: number; now?: () => number } = {},
): DpopReplayStore {
  const shardChars = options.shardChars ?? 2;
  if (!Number.isInteger(shardChars) || shardChars < 1 || shardChars > 4)
    throw new RangeError('dpop replay: shardChars must be 1..4');
  const timeoutMs = options.timeoutMs ?? 500;
  const now = options.now ?? Date.now;
  return {
    async checkAndRemember(key, expiresAt) {
      const problem = replayInputProblem(key, expiresAt, Math.floor(now() / 1000));
      if (problem !== undefined) throw new TypeError(`dpop replay: ${problem}`);
      const stub = namespace.get(namespace.idFromName(`dpop-replay:${key.slice(0, shardChars)}`) as never);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('dpop replay: store timed out')), timeoutMs);
      });
      try {
        const res = await Promise.race([
          stub.fetch('https://dpop-replay.internal/check', {
            method: 'POST',
            body: JSON.stringify({ key, expiresAt }),
          }),
          deadline,
        ]);
        if (res.status !== 200) throw new Error(`dpop replay: store answered ${res.status}`);
        const body = (await Promise.race([res.json(), deadline])) as { outcome?: unknown } | null;
        if (body?.outcome === 'fresh') return true;
        if (body?.outcome === 'replayed') return false;
        throw new Error('dpop replay: store answer is malformed');
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
