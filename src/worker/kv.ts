// What the guard needs of a KV namespace, and the rules every KV use follows:
// KV's minimum entry life, and a bound on each call (KV is an optimisation,
// never a dependency; a hung read must not hang the request).

/** KV refuses an expirationTtl under 60 seconds. */
export const KV_MIN_TTL = 60;

/** The two KV methods the guard calls (a Workers KVNamespace satisfies it). */
export interface KVLike {
  get(key: string, type: 'text'): Promise<string | null>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
}

/**
 * Run `op` and resolve to `fallback` when it throws, rejects or takes longer than `ms`.
 * @example const v = await bounded(() => kv.get(key, 'text'), 100, null)
 */
export function bounded<T>(
  op: () => Promise<T> | T,
  ms: number,
  fallback: T,
  onFault?: (kind: 'error' | 'timeout') => void,
): Promise<T> {
  return new Promise<T>((resolve) => {
    let done = false;
    const finish = (v: T, fault?: 'error' | 'timeout'): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (fault !== undefined) onFault?.(fault);
      resolve(v);
    };
    const timer = setTimeout(() => finish(fallback, 'timeout'), ms);
    let p: Promise<T>;
    try {
      p = Promise.resolve(op());
    } catch {
      p = Promise.reject(new Error('threw'));
    }
    p.then(
      (v) => finish(v),
      () => finish(fallback, 'error'),
    );
  });
}
