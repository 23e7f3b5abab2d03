// The revocation list as a Durable Object: one instance per deployment (by name),
// single-threaded, so versions are handed out in order without locks. Storage holds
// `v` (the last version) and `e:<version>` per entry; an alarm at the earliest `exp`
// prunes lapsed entries even when nobody revokes. Reached by fetch on a binding only
// (never from the internet): POST /revoke, GET /since?version=N, GET /list.

import { parseRevocationEntry, type VersionedEntry } from './entry.js';
import { DEFAULT_MAX_ENTRIES, RevocationLog } from './log.js';

/** The slice of DurableObjectStorage used here (typed locally: no Workers type package). */
export interface RevocationStorage {
  get<T>(key: string): Promise<T | undefined>;
  list<T>(options: { prefix: string }): Promise<Map<string, T>>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<number>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The slice of DurableObjectState used here. */
export interface RevocationState {
  readonly storage: RevocationStorage;
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

const MAX_BODY = 4096;
// storage.delete takes at most 128 keys per call.
const DELETE_BATCH = 128;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The Durable Object class to export from the Worker entry and bind (e.g. as
 * `REVOCATIONS`). `RevocationView` reads it through `durableObjectRevocationSource`.
 *
 * @example
 * // worker entry
 * export { RevocationList } from './revocation/index.js'; // from the Worker entry (src/worker/index.ts)
 * // wrangler.toml
 * // [[durable_objects.bindings]] name = "REVOCATIONS" class_name = "RevocationList"
 * // [[migrations]] tag = "v1" new_sqlite_classes = ["RevocationList"]
 */
export class RevocationList {
  readonly #state: RevocationState;
  readonly #log: RevocationLog;
  readonly #now: () => number;

  constructor(state: RevocationState, _env?: unknown, options: { maxEntries?: number; now?: () => number } = {}) {
    this.#state = state;
    this.#log = new RevocationLog(options.maxEntries ?? DEFAULT_MAX_ENTRIES);
    this.#now = options.now ?? Date.now;
    void state.blockConcurrencyWhile(async () => {
      const version = (await state.storage.get<number>('v')) ?? 0;
      const entries = await state.storage.list<VersionedEntry>({ prefix: 'e:' });
      this.#log.load(version, entries.values());
    });
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const nowS = Math.floor(this.#now() / 1000);
    if (request.method === 'GET' && (url.pathname === '/since' || url.pathname === '/list')) {
      const from = url.pathname === '/list' ? 0 : Number(url.searchParams.get('version') ?? '0');
      return json(this.#log.since(from, nowS));
    }
    if (request.method === 'POST' && url.pathname === '/revoke') return this.#revoke(request, nowS);
    return json({ error: 'not_found' }, 404);
  }

  async alarm(): Promise<void> {
    const pruned = this.#log.prune(Math.floor(this.#now() / 1000));
    await this.#forget(pruned);
    await this.#arm();
  }

  async #revoke(request: Request, nowS: number): Promise<Response> {
    const text = await request.text();
    if (text.length > MAX_BODY) return json({ error: 'too_large' }, 413);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json({ error: 'invalid_entry', reason: 'not JSON' }, 400);
    }
    const entry = parseRevocationEntry(body, nowS);
    if (typeof entry === 'string') return json({ error: 'invalid_entry', reason: entry }, 400);
    const added = this.#log.revoke(entry, nowS);
    if (added === undefined) return json({ error: 'list_full' }, 507);
    await this.#state.storage.put({ v: added.version, [`e:${added.version}`]: { ...entry, version: added.version } });
    await this.#forget(added.pruned);
    await this.#arm();
    return json({ version: added.version });
  }

  async #forget(versions: number[]): Promise<void> {
    for (let i = 0; i < versions.length; i += DELETE_BATCH)
      await this.#state.storage.delete(versions.slice(i, i + DELETE_BATCH).map((v) => `e:${v}`));
  }

  async #arm(): Promise<void> {
    const next = this.#log.nextExpiry();
    if (next !== undefined) await this.#state.storage.setAlarm(next * 1000);
  }
}
