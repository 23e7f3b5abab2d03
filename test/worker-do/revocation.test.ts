// src/worker/revocation/: the revocation list as a Durable Object (REVOCATIONS, bound
// in test/worker-do/wrangler.toml), the per-isolate RevocationView, and the "isolate"
// store. Clocks are injected where expiry or the refresh interval is the point.
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  durableObjectRevocationSource,
  isolateRevocationStore,
  RevocationList,
  RevocationView,
  type RevocationNamespace,
  type RevocationSource,
} from '../../src/worker/revocation/index.js';

const ns = env.REVOCATIONS as RevocationNamespace;
const realNowS = () => Math.floor(Date.now() / 1000);
const ISS = 'https://issuer.example';

/** A clock the test moves by hand (ms). */
function clock(start = Date.now()) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

async function revokeOn(name: string, entry: unknown): Promise<Response> {
  const stub = ns.get(ns.idFromName(name) as never);
  return stub.fetch('https://revocation-list.internal/revoke', { method: 'POST', body: JSON.stringify(entry) });
}

describe('RevocationView over the isolate store', () => {
  it('revocation_by_jti: only the named token, only until its exp', async () => {
    const c = clock();
    const nowS = Math.floor(c.now() / 1000);
    const store = isolateRevocationStore({ now: c.now });
    await store.revoke({ jti: 'tok-1', exp: nowS + 60 });
    const view = new RevocationView(store, { now: c.now });
    expect(await view.check({ jti: 'tok-1', iss: ISS, sub: 'a' })).toBe('revoked');
    expect(await view.check({ jti: 'tok-2', iss: ISS, sub: 'a' })).toBe('ok');
    expect(await view.check({ iss: ISS, sub: 'a' })).toBe('ok');
    c.advance(61_000);
    expect(await view.check({ jti: 'tok-1', iss: ISS, sub: 'a' })).toBe('ok');
  });

  it('revocation_by_subject_issued_before: earlier tokens and tokens without iat revoked, later ones not', async () => {
    const c = clock();
    const nowS = Math.floor(c.now() / 1000);
    const store = isolateRevocationStore({ now: c.now });
    await store.revoke({ iss: ISS, sub: 'user-1', issuedBefore: nowS - 10, exp: nowS + 3600 });
    const view = new RevocationView(store, { now: c.now });
    expect(await view.check({ iss: ISS, sub: 'user-1', iat: nowS - 11 })).toBe('revoked');
    expect(await view.check({ iss: ISS, sub: 'user-1' })).toBe('revoked');
    expect(await view.check({ iss: ISS, sub: 'user-1', iat: String(nowS) })).toBe('revoked');
    expect(await view.check({ iss: ISS, sub: 'user-1', iat: nowS - 10 })).toBe('ok');
    expect(await view.check({ iss: ISS, sub: 'user-2', iat: nowS - 100 })).toBe('ok');
    expect(await view.check({ iss: 'https://other.example', sub: 'user-1', iat: nowS - 100 })).toBe('ok');
    // The (iss, sub) key is injective: moving characters across the boundary names another subject.
    await store.revoke({ iss: 'ab', sub: 'c', issuedBefore: nowS, exp: nowS + 60 });
    c.advance(1000);
    expect(await view.check({ iss: 'a', sub: 'bc', iat: 1 })).toBe('ok');
    expect(await view.check({ iss: 'ab', sub: 'c', iat: 1 })).toBe('revoked');
  });

  it('revocation_entries_checked: refused shapes, lifetimes and members', async () => {
    const nowS = realNowS();
    const store = isolateRevocationStore();
    for (const bad of [
      { jti: 'a' },
      { jti: 'a', exp: nowS - 1 },
      { jti: 'a', exp: nowS + 400 * 86_400 },
      { jti: '', exp: nowS + 60 },
      { jti: 'a'.repeat(257), exp: nowS + 60 },
      { jti: '\ud800', exp: nowS + 60 },
      { jti: 'a', exp: nowS + 60.5 },
      { jti: 'a', exp: nowS + 60, sub: 'x' },
      { iss: ISS, sub: 'x', exp: nowS + 60 },
      { iss: ISS, sub: 'x', issuedBefore: 'yesterday', exp: nowS + 60 },
      Object.assign(Object.create({ jti: 'a' }), { exp: nowS + 60 }),
      null,
      [],
    ]) {
      await expect(store.revoke(bad as never)).rejects.toThrow(/revocation entry/);
    }
    expect(store.log.size).toBe(0);
  });

  it('revocation_list_bounded_and_pruned: full list refuses, lapsed entries make room', async () => {
    const c = clock();
    const nowS = Math.floor(c.now() / 1000);
    const store = isolateRevocationStore({ maxEntries: 2, now: c.now });
    await store.revoke({ jti: 'a', exp: nowS + 10 });
    await store.revoke({ jti: 'b', exp: nowS + 100 });
    await expect(store.revoke({ jti: 'c', exp: nowS + 100 })).rejects.toThrow(/full/);
    c.advance(11_000);
    expect(await store.revoke({ jti: 'c', exp: nowS + 100 })).toBe(3);
    expect(store.log.size).toBe(2);
    expect((await store.since(0)).entries.map((e) => 'jti' in e && e.jti)).toEqual(['b', 'c']);
  });

  it('revocation_version_deltas: since(v) gives only newer entries; an unknown version gives all', async () => {
    const nowS = realNowS();
    const store = isolateRevocationStore();
    for (const j of ['a', 'b', 'c']) await store.revoke({ jti: j, exp: nowS + 60 });
    const d = await store.since(2);
    expect(d).toMatchObject({ version: 3, full: false });
    expect(d.entries.map((e) => e.version)).toEqual([3]);
    expect((await store.since(3)).entries).toEqual([]);
    expect(await store.since(99)).toMatchObject({ version: 3, full: true });
    expect((await store.since(99)).entries).toHaveLength(3);
    expect((await store.since(-1)).full).toBe(true);
  });

  it('one refresh in flight: concurrent stale checks share it', async () => {
    const store = isolateRevocationStore();
    let calls = 0;
    const counted: RevocationSource = { since: (v) => (calls++, store.since(v)) };
    const view = new RevocationView(counted);
    await Promise.all(Array.from({ length: 20 }, () => view.check({ jti: 'x' })));
    expect(calls).toBe(1);
  });
});

describe('RevocationList Durable Object', () => {
  it('revokes through fetch, numbers versions, answers deltas', async () => {
    const nowS = realNowS();
    const name = 'deltas';
    expect(await (await revokeOn(name, { jti: 'j1', exp: nowS + 600 })).json()).toEqual({ version: 1 });
    expect(await (await revokeOn(name, { iss: ISS, sub: 's', issuedBefore: nowS, exp: nowS + 600 })).json()).toEqual({
      version: 2,
    });
    const bad = await revokeOn(name, { jti: 'j2', exp: nowS + 600, extra: true });
    expect(bad.status).toBe(400);
    expect((await revokeOn(name, 'not json{')).status).toBe(400);
    const source = durableObjectRevocationSource(ns, name);
    const delta = await source.since(1);
    expect(delta).toMatchObject({ version: 2, full: false });
    expect(delta.entries).toEqual([{ iss: ISS, sub: 's', issuedBefore: nowS, exp: nowS + 600, version: 2 }]);
    expect((await source.since(0)).entries).toHaveLength(2);
  });

  it('revocation_second_view_learns_after_refresh_interval', async () => {
    const name = 'two-views';
    const c = clock();
    const a = new RevocationView(durableObjectRevocationSource(ns, name, c.now), { refreshMs: 1000, now: c.now });
    const b = new RevocationView(durableObjectRevocationSource(ns, name, c.now), { refreshMs: 1000, now: c.now });
    const token = { jti: 'shared-1', iss: ISS, sub: 'u' };
    expect(await a.check(token)).toBe('ok');
    expect(await b.check(token)).toBe('ok');
    expect((await revokeOn(name, { jti: 'shared-1', exp: realNowS() + 600 })).status).toBe(200);
    // Within the interval both still answer from their copy.
    c.advance(999);
    expect(await b.check(token)).toBe('ok');
    c.advance(1);
    expect(await b.check(token)).toBe('revoked');
    expect(await a.check(token)).toBe('revoked');
    expect(b.version).toBe(1);
  });

  it('revocation_expiry_pruned_in_storage: the alarm drops lapsed entries; the version never goes back', async () => {
    const name = 'expiry';
    const nowS = realNowS();
    await revokeOn(name, { jti: 'short', exp: nowS + 5 });
    await revokeOn(name, { jti: 'long', exp: nowS + 600 });
    const stub = ns.get(ns.idFromName(name) as never);
    const keys = await runInDurableObject(stub, async (_instance, state) => {
      // A second instance over the same storage, with a clock 10 s ahead.
      const later = new RevocationList(state, undefined, { now: () => Date.now() + 10_000 });
      await state.blockConcurrencyWhile(async () => {});
      await later.alarm();
      return [...(await state.storage.list({ prefix: 'e:' })).keys()];
    });
    expect(keys).toEqual(['e:2']);
    // The deployed instance's own alarm is armed (at the earliest exp).
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await (await revokeOn(name, { jti: 'next', exp: nowS + 600 })).json()).toEqual({ version: 3 });
  });
});

describe('RevocationList Durable Object bounds', () => {
  it(
    'revocation_object_bounded: a full list answers 507, a body over 4 KiB 413, another route 404; nothing is ' +
      'stored',
    async () => {
      const stub = ns.get(ns.idFromName('bounded') as never);
      const statuses = await runInDurableObject(stub, async (_i, state) => {
        const list = new RevocationList(state, undefined, { maxEntries: 1 });
        await state.blockConcurrencyWhile(async () => {});
        const post = (body: string) =>
          list.fetch(new Request('https://revocation-list.internal/revoke', { method: 'POST', body }));
        const nowS = realNowS();
        const out = [
          (await post(JSON.stringify({ jti: 'one', exp: nowS + 60 }))).status,
          (await post(JSON.stringify({ jti: 'two', exp: nowS + 60 }))).status,
          (await post(JSON.stringify({ jti: 'x'.repeat(5000), exp: nowS + 60 }))).status,
          (await list.fetch(new Request('https://revocation-list.internal/elsewhere'))).status,
        ];
        return [...out, (await state.storage.list({ prefix: 'e:' })).size];
      });
      expect(statuses).toEqual([200, 507, 413, 404, 1]);
    },
  );
});

describe('revocation_fail_closed_when_store_unreachable (adversarial)', () => {
  const payload = { jti: 'known', iss: ISS, sub: 'u' };

  it(
    'a namespace whose object throws, hangs, or answers ' + 'garbage: required is unavailable, optional is not',
    async () => {
      const broken = (fetch: () => Promise<Response>): RevocationNamespace => ({
        idFromName: () => 'id',
        get: () => ({ fetch }),
      });
      const sources = {
        throws: broken(() => Promise.reject(new Error('object unreachable'))),
        hangs: broken(() => new Promise<Response>(() => {})),
        status500: broken(async () => new Response('x', { status: 500 })),
        garbage: broken(async () =>
          Response.json({ version: 1, full: true, entries: [{ version: 1, jti: 'a', exp: 'never' }] }),
        ),
        notJson: broken(async () => new Response('<html>')),
      };
      for (const [label, namespace] of Object.entries(sources)) {
        const required = new RevocationView(durableObjectRevocationSource(namespace), {
          required: true,
          timeoutMs: 20,
        });
        expect([label, await required.check(payload)]).toEqual([label, 'unavailable']);
        const optional = new RevocationView(durableObjectRevocationSource(namespace), { timeoutMs: 20 });
        expect([label, await optional.check(payload)]).toEqual([label, 'ok']);
      }
    },
  );

  it(
    'after a good refresh: the copy holds for maxStaleMs, then a required view refuses; known revocations stay ' +
      'revoked',
    async () => {
      const c = clock();
      const store = isolateRevocationStore({ now: c.now });
      await store.revoke({ jti: 'known', exp: Math.floor(c.now() / 1000) + 3600 });
      let down = false;
      const flaky: RevocationSource = { since: (v) => (down ? Promise.reject(new Error('down')) : store.since(v)) };
      let calls = 0;
      const counted: RevocationSource = { since: (v) => (calls++, flaky.since(v)) };
      const required = new RevocationView(counted, { required: true, refreshMs: 1000, maxStaleMs: 5000, now: c.now });
      const optional = new RevocationView(flaky, { refreshMs: 1000, maxStaleMs: 5000, now: c.now });
      expect(await required.check(payload)).toBe('revoked');
      expect(await optional.check({ jti: 'other' })).toBe('ok');
      down = true;
      c.advance(4000);
      expect(await required.check({ jti: 'other' })).toBe('ok');
      expect(await required.check(payload)).toBe('revoked');
      c.advance(1001);
      expect(await required.check({ jti: 'other' })).toBe('unavailable');
      expect(await optional.check(payload)).toBe('revoked');
      expect(await optional.check({ jti: 'other' })).toBe('ok');
      // A failed refresh is not retried on every request: one try per refreshMs.
      const before = calls;
      for (let i = 0; i < 10; i++) await required.check(payload);
      expect(calls).toBe(before);
    },
  );
});
