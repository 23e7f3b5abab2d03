// The per-isolate verify cache: hits, exp/nbf re-checked on hits, failures never
// cached, bounded size, TTL, and independence between verifiers.
import { describe, expect, it } from 'vitest';
import { createVerifier } from '../../src/index.js';
import { NOW, claims, codeOfSync, mint } from './jwt-mint.js';

const secret = new Uint8Array(32).fill(5);
let key: CryptoKey | undefined;
async function token(payload: Record<string, unknown>): Promise<string> {
  key ??= await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return mint({ alg: 'HS256', privateKey: key }, payload);
}

/** A verifier whose clock the test moves. */
function clocked(start: number, extra: Record<string, unknown> = {}) {
  const date = new Date(start * 1000);
  const v = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: date, ...extra });
  return { v, set: (s: number) => date.setTime(s * 1000) };
}

describe('verify cache', () => {
  it('a hit returns the same frozen result for a fresh copy of the token string', async () => {
    const t = await token(claims());
    const { v } = clocked(NOW);
    const first = v.verifySync(t);
    const copy = (' ' + t).slice(1);
    expect(v.verifySync(copy)).toBe(first);
  });
  it('exp is re-checked on every hit', async () => {
    const t = await token(claims({ exp: NOW + 5 }));
    const c = clocked(NOW);
    c.v.verifySync(t);
    c.set(NOW + 4);
    expect(codeOfSync(() => c.v.verifySync(t))).toBe('OK');
    c.set(NOW + 5);
    expect(codeOfSync(() => c.v.verifySync(t))).toBe('ERR_JWT_EXPIRED');
  });
  it('nbf is re-checked on every hit (clock moved back)', async () => {
    const t = await token(claims({ nbf: NOW }));
    const c = clocked(NOW);
    c.v.verifySync(t);
    c.set(NOW - 1);
    expect(codeOfSync(() => c.v.verifySync(t))).toBe('ERR_JWT_NOT_YET_VALID');
  });
  it('maxTokenAge is re-checked on every hit', async () => {
    const t = await token(claims({ iat: NOW, exp: NOW + 1000 }));
    const c = clocked(NOW, { maxTokenAge: 60, clockTolerance: 2 });
    c.v.verifySync(t);
    c.set(NOW + 61.999);
    expect(codeOfSync(() => c.v.verifySync(t))).toBe('OK');
    // iat + maxTokenAge + tolerance: refused at the boundary, as exp is.
    c.set(NOW + 62);
    expect(codeOfSync(() => c.v.verifySync(t))).toBe('ERR_JWT_EXPIRED');
    c.set(NOW - 3);
    expect(codeOfSync(() => c.v.verifySync(t))).toBe('ERR_JWT_CLAIM_INVALID');
  });
  it('failures are never cached', async () => {
    const t = await token(claims({ nbf: NOW + 10 }));
    const c = clocked(NOW);
    expect(codeOfSync(() => c.v.verifySync(t))).toBe('ERR_JWT_NOT_YET_VALID');
    c.set(NOW + 10);
    expect(codeOfSync(() => c.v.verifySync(t))).toBe('OK');
  });
  it('a tampered copy of a cached token is still rejected', async () => {
    const t = await token(claims());
    const { v } = clocked(NOW);
    v.verifySync(t);
    const tampered = t.slice(0, -2) + (t.endsWith('AA') ? 'BA' : 'AA');
    expect(codeOfSync(() => v.verifySync(tampered))).toMatch(/ERR_JWS_SIGNATURE_INVALID|ERR_JWT_MALFORMED/);
  });
  it('a token sharing the cached signature (same tail) but another payload is not a hit', async () => {
    const t = await token(claims());
    const { v } = clocked(NOW);
    v.verifySync(t);
    const [h, , sig] = t.split('.');
    const other = (await token(claims({ sub: 'admin' }))).split('.')[1];
    expect(codeOfSync(() => v.verifySync(`${h}.${other}.${sig}`))).toBe('ERR_JWS_SIGNATURE_INVALID');
    expect(codeOfSync(() => v.verifySync(t))).toBe('OK');
  });
  it('entries end after the ttl even when exp is far away', async () => {
    const t = await token(claims({ exp: NOW + 100_000 }));
    const c = clocked(NOW, { cache: { ttl: 10 } });
    const first = c.v.verifySync(t);
    c.set(NOW + 9);
    expect(c.v.verifySync(t)).toBe(first);
    c.set(NOW + 10);
    const again = c.v.verifySync(t);
    expect(again).not.toBe(first);
    expect(again.payload).toEqual(first.payload);
  });
  it('is bounded: the least recently used entry goes first', async () => {
    const tokens = await Promise.all([0, 1, 2, 3].map((i) => token(claims({ jti: `t${i}` }))));
    const { v } = clocked(NOW, { cache: { max: 3 } });
    const r = tokens.map((t) => v.verifySync(t)); // t0 evicted by t3
    expect(v.verifySync(tokens[3]!)).toBe(r[3]);
    expect(v.verifySync(tokens[0]!)).not.toBe(r[0]);
  });
  it('cache: false verifies every time', async () => {
    const t = await token(claims());
    const { v } = clocked(NOW, { cache: false });
    expect(v.verifySync(t)).not.toBe(v.verifySync(t));
  });
  it('verifiers do not share entries (a token cached under one policy is re-checked under another)', async () => {
    const t = await token(claims({ aud: 'api' }));
    const a = clocked(NOW, { audience: 'api' });
    const b = clocked(NOW, { audience: 'other' });
    expect(codeOfSync(() => a.v.verifySync(t))).toBe('OK');
    expect(codeOfSync(() => b.v.verifySync(t))).toBe('ERR_JWT_CLAIM_INVALID');
  });
  it('clearCache drops every entry', async () => {
    const t = await token(claims());
    const { v } = clocked(NOW);
    const first = v.verifySync(t);
    v.clearCache();
    expect(v.verifySync(t)).not.toBe(first);
  });
});
