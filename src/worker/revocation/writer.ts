// What the guard's revocation admin endpoint writes to and lists from: the
// RevocationList Durable Object through its binding (fixed name, never chosen by a
// request), or the in-isolate store. An entry reaches a writer already checked.

import { Deadline } from '../../keys/fetch-deadline.js';
import type { RevocationEntry } from './entry.js';
import type { RevocationDelta } from './log.js';
import { readDelta, type IsolateRevocationStore, type RevocationNamespace } from './source.js';

/**
 * Add a revocation (`'full'`: the list refuses new entries) or read the list in force.
 * Anything else (object unreachable, slow, an answer not understood) rejects.
 *
 * @example
 * const writer = isolateRevocationWriter(isolateRevocationStore());
 * await writer.revoke({ jti: 'a', exp: nowS + 600 }); // { version: 1 }
 */
export interface RevocationWriter {
  revoke(entry: RevocationEntry): Promise<{ version: number } | 'full'>;
  list(): Promise<RevocationDelta>;
}

/**
 * The writer over the in-isolate store (`store: "isolate"`).
 *
 * @example
 * const writer = isolateRevocationWriter(store);
 */
export function isolateRevocationWriter(store: IsolateRevocationStore): RevocationWriter {
  return {
    async revoke(entry) {
      try {
        return { version: await store.revoke(entry) };
      } catch (e) {
        if (e instanceof RangeError) return 'full';
        throw e;
      }
    },
    list: () => store.since(0),
  };
}

/**
 * The writer over the RevocationList object `name` of `namespace`, each call under `timeoutMs`.
 *
 * @example
 * const writer = durableObjectRevocationWriter(env.REVOCATIONS, 'revocations', 2000);
 */
export function durableObjectRevocationWriter(
  namespace: RevocationNamespace,
  name: string,
  timeoutMs: number,
  now: () => number = Date.now,
): RevocationWriter {
  const call = async (path: string, init?: RequestInit): Promise<Response> => {
    const d = new Deadline(timeoutMs);
    try {
      // A stub per call: workerd binds a stub to the request that made it (see source.ts).
      const stub = namespace.get(namespace.idFromName(name) as never);
      return await d.race(stub.fetch(`https://revocation-list.internal${path}`, { ...init, signal: d.signal }));
    } finally {
      d.clear();
    }
  };
  return {
    async revoke(entry) {
      const res = await call('/revoke', {
        method: 'POST',
        body: JSON.stringify(entry),
        headers: { 'content-type': 'application/json' },
      });
      if (res.status === 507) return 'full';
      const body = (await res.json()) as { version?: unknown };
      if (res.status !== 200 || !Number.isSafeInteger(body.version))
        throw new Error(`revocation list answered ${res.status}`);
      return { version: body.version as number };
    },
    async list() {
      const res = await call('/list');
      if (res.status !== 200) throw new Error(`revocation list answered ${res.status}`);
      return readDelta(await res.json(), Math.floor(now() / 1000));
    },
  };
}
