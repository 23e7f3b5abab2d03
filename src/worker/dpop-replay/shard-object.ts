// One shard of the DPoP replay store as a Durable Object. The shard is chosen by the
// first characters of the replay key (a SHA-256, so the spread is even and no client
// picks its shard). Storage keeps `k:<key>` -> expiry so an evicted object still
// remembers; an alarm at the earliest expiry sweeps lapsed keys.
// Reached by fetch on a binding only: POST /check {key, expiresAt} -> {outcome}.

import { DEFAULT_MAX_KEYS, ReplayWindow, replayInputProblem } from './window.js';

/** The slice of DurableObjectState used here (typed locally: no Workers type package). */
export interface ReplayShardState {
  readonly storage: {
    list<T>(options: { prefix: string }): Promise<Map<string, T>>;
    put(key: string, value: unknown): Promise<void>;
    delete(keys: string[]): Promise<number>;
    setAlarm(scheduledTime: number): Promise<void>;
  };
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

const DELETE_BATCH = 128;
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * The Durable Object class behind `dpop.replay: { durableObject: "<binding>" }`.
 *
 * @example
 * // Worker entry (src/worker/index.ts): export { DpopReplayShard } from './dpop-replay/index.js';
 * // wrangler.toml: [[durable_objects.bindings]] name = "DPOP_REPLAY" class_name = "DpopReplayShard"
 */
export class DpopReplayShard {
  readonly #state: ReplayShardState;
  readonly #window: ReplayWindow;
  readonly #now: () => number;
  #alarmAt: number | undefined;

  constructor(state: ReplayShardState, _env?: unknown, options: { maxKeys?: number; now?: () => number } = {}) {
    this.#state = state;
    this.#window = new ReplayWindow(options.maxKeys ?? DEFAULT_MAX_KEYS);
    this.#now = options.now ?? Date.now;
    void state.blockConcurrencyWhile(async () => {
      const held = await state.storage.list<number>({ prefix: 'k:' });
      this.#window.load([...held].map(([k, exp]) => [k.slice(2), exp] as [string, number]));
    });
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method !== 'POST' || url.pathname !== '/check') return json({ error: 'not_found' }, 404);
    const text = await request.text();
    if (text.length > 512) return json({ error: 'too_large' }, 413);
    let body: { key?: unknown; expiresAt?: unknown };
    try {
      body = JSON.parse(text) ?? {};
    } catch {
      return json({ error: 'invalid', reason: 'not JSON' }, 400);
    }
    const nowS = Math.floor(this.#now() / 1000);
    const problem = replayInputProblem(body.key, body.expiresAt, nowS);
    if (problem !== undefined) return json({ error: 'invalid', reason: problem }, 400);
    const key = body.key as string;
    const expiresAt = body.expiresAt as number;
    // Decided before any await: nothing can interleave between the check and the record.
    const { outcome, pruned } = this.#window.checkAndRemember(key, expiresAt, nowS);
    if (outcome === 'fresh') await this.#state.storage.put(`k:${key}`, expiresAt);
    await this.#forget(pruned);
    if (outcome === 'fresh' && (this.#alarmAt === undefined || expiresAt * 1000 < this.#alarmAt))
      await this.#arm(expiresAt);
    return json({ outcome });
  }

  async alarm(): Promise<void> {
    this.#alarmAt = undefined;
    await this.#forget(this.#window.prune(Math.floor(this.#now() / 1000)));
    const next = this.#window.nextExpiry();
    if (next !== undefined) await this.#arm(next);
  }

  async #arm(atS: number): Promise<void> {
    this.#alarmAt = atS * 1000;
    await this.#state.storage.setAlarm(this.#alarmAt);
  }

  async #forget(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH)
      await this.#state.storage.delete(keys.slice(i, i + DELETE_BATCH).map((k) => `k:${k}`));
  }
}
