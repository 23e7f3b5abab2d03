// The guard's known-answer token (src/worker/self-test.ts) checked against
// node:crypto: its HMAC is right for its key, and its claims are what the self-test expects.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SELF_TEST } from '../../src/worker/self-test.js';

describe('guard self-test vector', () => {
  it('self_test_vector_node_crypto: the HS256 token is signed by its key, per node:crypto', () => {
    const [h, p, s] = SELF_TEST.token.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    expect(payload).toMatchObject({ iss: SELF_TEST.issuer, aud: SELF_TEST.issuer, sub: 'self-test' });
    expect(payload.exp).toBeGreaterThan(Date.now() / 1000 + 50 * 365 * 86400);
    expect(createHmac('sha256', SELF_TEST.key).update(`${h}.${p}`).digest('base64url')).toBe(s);
  });
});
