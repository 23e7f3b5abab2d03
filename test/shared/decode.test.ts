// decodeUnverified: shape rules only, no signature or claim checks.
import { describe, expect, it } from 'vitest';
import { decodeUnverified } from '../../src/index.js';
import { b64u, codeOfSync } from './jwt-mint.js';

const token = (h: unknown, p: unknown, s = 'c2ln') => `${b64u(JSON.stringify(h))}.${b64u(JSON.stringify(p))}.${s}`;

describe('decodeUnverified', () => {
  it('returns header and payload of a token it cannot verify (bad signature, expired)', () => {
    const d = decodeUnverified(token({ alg: 'RS256', kid: 'k' }, { sub: 'x', exp: 1 }));
    expect(d.header.kid).toBe('k');
    expect(d.payload).toEqual({ sub: 'x', exp: 1 });
  });
  it('still applies the shape rules', () => {
    const good = token({ alg: 'HS256' }, { a: 1 });
    expect(codeOfSync(() => decodeUnverified(`${good}.x`))).toBe('ERR_JWT_MALFORMED');
    expect(codeOfSync(() => decodeUnverified(good.replace('.', '=.')))).toBe('ERR_JWT_MALFORMED');
    expect(codeOfSync(() => decodeUnverified(`${b64u('{"alg":"HS256","alg":"x"}')}.${b64u('{}')}.c2ln`))).toBe(
      'ERR_JWS_HEADER_INVALID',
    );
    expect(codeOfSync(() => decodeUnverified(token({ alg: 'HS256' }, [1])))).toBe('ERR_JWT_PAYLOAD_INVALID');
    const parts = good.split('.');
    expect(codeOfSync(() => decodeUnverified(`${parts[0]}.${parts[1]}+.c2ln`))).toBe('ERR_JWT_MALFORMED');
    expect(codeOfSync(() => decodeUnverified('x'.repeat(20_000)))).toBe('ERR_JWT_TOO_LARGE');
  });
});
