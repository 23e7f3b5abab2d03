// One structured line per refusal (code, claim, iss, kid, alg, rule, method,
// path), never the token; rate-limited per isolate; a wrong issuer has its own code.
import { beforeAll, describe, expect, it } from 'vitest';
import { RejectionLog } from '../../../../src/worker/stages/observe/rejection-log.js';
import { baseConfig, bearer, demoKeys, forged, makeGuard, token, type Keys } from '../../harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

const lines = (logs: string[]): Record<string, unknown>[] =>
  logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.edgejwt === 'rejected');

describe('rejection log', () => {
  it('a wrong issuer is wrong_issuer (not "no matching key"), with iss, kid, alg, method and path', async () => {
    const g = await makeGuard(k);
    const t = await token(k.ed, { iss: 'https://evil.example.com' });
    expect((await g.send('/orders/1?secret=1', { method: 'POST', ...bearer(t) })).status).toBe(401);
    const [line] = lines(g.logs);
    expect(line).toEqual({
      edgejwt: 'rejected',
      code: 'wrong_issuer',
      status: 401,
      iss: 'https://evil.example.com',
      kid: 'ed-1',
      alg: 'EdDSA',
      method: 'POST',
      path: '/orders/1',
    });
    expect(g.guard.counters.get('rejected:wrong_issuer')).toBe(1);
  });

  it('each refusal class has its code; the claim is named; the token never appears', async () => {
    const g = await makeGuard(k);
    const expired = await token(k.ed, { exp: Math.floor(Date.now() / 1000) - 100 });
    const bad = await forged();
    await g.send('/x');
    await g.send('/x', { headers: { authorization: 'Bearer a b' } });
    await g.send('/x', bearer(expired));
    await g.send('/x', bearer(bad));
    await g.send('/admin/x', bearer(await token(k.ed, { scope: 'read' })));
    const got = lines(g.logs);
    expect(got.map((l) => l.code)).toEqual([
      'missing_token',
      'malformed_token',
      'ERR_JWT_EXPIRED',
      'ERR_JWS_SIGNATURE_INVALID',
      'insufficient_scope',
    ]);
    expect(got[2]).toMatchObject({ claim: 'exp', status: 401 });
    expect(got[4]).toMatchObject({ rule: 'rules[0]', status: 403 });
    const all = g.logs.join('\n');
    for (const t of [expired, bad]) for (const seg of t.split('.')) expect(all).not.toContain(seg);
  });

  it('rate-limited: a burst of 20, then about one a second, and the next line says how many were dropped', () => {
    let now = 0;
    const out: string[] = [];
    const log = new RejectionLog(
      (l) => out.push(l),
      () => now,
    );
    for (let i = 0; i < 1000; i++) log.write({ code: 'missing_token', status: 401, method: 'GET', path: '/x' });
    expect(out).toHaveLength(20);
    expect(log.dropped).toBe(980);
    now += 1000;
    log.write({ code: 'missing_token', status: 401, method: 'GET', path: '/x' });
    expect(out).toHaveLength(21);
    expect(JSON.parse(out[20]!)).toMatchObject({ dropped: 980 });
  });

  it('unverified values are clipped', async () => {
    const g = await makeGuard(k, { config: baseConfig(k) });
    await g.send('/x', bearer(await token(k.ed, { iss: `https://${'a'.repeat(500)}.example.com` })));
    expect(String(lines(g.logs)[0]!.iss).length).toBeLessThanOrEqual(201);
  });

  it('an ANALYTICS binding gets one data point per outcome', async () => {
    const points: { indexes?: string[]; blobs?: string[] }[] = [];
    const g = await makeGuard(k, {
      env: { ANALYTICS: { writeDataPoint: (p: (typeof points)[number]) => void points.push(p) } },
    });
    await g.send('/x', bearer(await token(k.ed)));
    await g.send('/x');
    await g.send('/health');
    expect(points.map((p) => p.indexes![0])).toEqual(['accepted', 'missing_token', 'anonymous']);
    expect(points[0]!.blobs![1]).toBe('https://id.example.com');
    // An unconfigured (unverified) iss never reaches Analytics Engine.
    await g.send('/x', bearer(await token(k.ed, { iss: 'https://attacker.example.com/spam' })));
    expect(points.at(-1)).toMatchObject({ indexes: ['wrong_issuer'], blobs: ['wrong_issuer', ''] });
  });
});
