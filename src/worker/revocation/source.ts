// Where a RevocationView reads deltas from: the Durable Object through its binding,
// or (tests, single-isolate setups) a RevocationLog in this isolate. Whatever comes
// back from the object is checked again before an isolate indexes it.

import { parseRevocationEntry, type RevocationEntry, type VersionedEntry } from './entry.js';
import { RevocationLog, type RevocationDelta } from './log.js';

/**
 * What a view needs: the delta after `version`.
 *
 * @example
 * const source: RevocationSource = isolateRevocationStore();
 * await source.since(0); // { version: 0, full: true, entries: [] }
 */
export interface RevocationSource {
  since(version: number): Promise<RevocationDelta>;
}

/** The slice of a DurableObjectNamespace used here. */
export interface RevocationNamespace {
  idFromName(name: string): unknown;
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> };
}

/** An in-memory list that is also a source: for tests and one-isolate deployments. */
export interface IsolateRevocationStore extends RevocationSource {
  revoke(entry: RevocationEntry): Promise<number>;
  readonly log: RevocationLog;
}

/**
 * A revocation store living in this isolate only (the `"isolate"` store): revocations
 * are not shared between isolates. `revoke` rejects an invalid entry or a full list.
 *
 * @example
 * const store = isolateRevocationStore();
 * await store.revoke({ jti: 'a', exp: Math.floor(Date.now() / 1000) + 600 });
 * const view = new RevocationView(store);
 */
export function isolateRevocationStore(
  options: { maxEntries?: number; now?: () => number } = {},
): IsolateRevocationStore {
  const log = new RevocationLog(options.maxEntries);
  const nowS = () => Math.floor((options.now ?? Date.now)() / 1000);
  return {
    log,
    async revoke(value) {
      const entry = parseRevocationEntry(value, nowS());
      if (typeof entry === 'string') throw new TypeError(`revocation entry: ${entry}`);
      const added = log.revoke(entry, nowS());
      if (added === undefined) throw new RangeError('revocation list is full');
      return added.version;
    },
    async since(version) {
      return log.since(version, nowS());
    },
  };
}

/**
 * The RevocationList Durable Object named `name` in `namespace`, as a source. A non-200
 * answer or a body that is not a well-formed delta rejects (the view counts it as a
 * failed refresh).
 *
 * @example
 * const view = new RevocationView(durableObjectRevocationSource(env.REVOCATIONS), { required: true });
 */
export function durableObjectRevocationSource(
  namespace: RevocationNamespace,
  name = 'revocations',
  now: () => number = Date.now,
): RevocationSource {
  return {
    async since(version) {
      // A stub per call: workerd binds a stub to the request that made it, and the view
      // outlives requests (a stub kept from the first request fails in the second).
      const stub = namespace.get(namespace.idFromName(name) as never);
      const res = await stub.fetch(`https://revocation-list.internal/since?version=${version}`);
      if (res.status !== 200) throw new Error(`revocation list answered ${res.status}`);
      return readDelta(await res.json(), Math.floor(now() / 1000));
    },
  };
}

/** A delta read back from the object, every entry checked; lapsed ones dropped. */
export function readDelta(body: unknown, nowS: number): RevocationDelta {
  const b = body as Partial<RevocationDelta> | null;
  if (
    typeof b !== 'object' ||
    b === null ||
    !Number.isSafeInteger(b.version) ||
    typeof b.full !== 'boolean' ||
    !Array.isArray(b.entries)
  ) {
    throw new Error('revocation delta is malformed');
  }
  const entries: VersionedEntry[] = [];
  for (const raw of b.entries as unknown[]) {
    const { version, ...rest } = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    if (!Number.isSafeInteger(version)) throw new Error('revocation delta is malformed');
    if (typeof rest.exp === 'number' && rest.exp <= nowS) continue;
    const entry = parseRevocationEntry(rest, nowS);
    if (typeof entry === 'string') throw new Error('revocation delta is malformed');
    entries.push({ ...entry, version: version as number });
  }
  return { version: b.version as number, full: b.full, entries };
}
