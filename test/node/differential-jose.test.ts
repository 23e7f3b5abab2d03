// Differential against jose: for every algorithm, at least 5,000 tokens (valid,
// expired, not yet valid, wrong audience/issuer, tampered header, payload or
// signature, wrong key, wrong alg, truncated) verified by edgejwt and by jose with
// equivalent options. Every disagreement fails the test unless it is one of our
// documented stricter rules (below), which is then asserted precisely.
import { Buffer } from 'node:buffer';
import { createHmac, generateKeyPairSync, sign as nodeSign, type KeyObject } from 'node:crypto';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { createVerifier, type JWK } from '../../src/index.js';

const ALGS = [
  'HS256',
  'HS384',
  'HS512',
  'EdDSA',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
] as const;
type Alg = (typeof ALGS)[number];
const CASES = 5_000;
const NOW = 1_800_000_000;
const ISS = 'https://issuer.example';
const AUD = 'api';

const HASH: Record<string, string> = { '256': 'sha256', '384': 'sha384', '512': 'sha512' };
const CURVE: Record<string, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** xorshift32: failures reproduce from the seed. */
function rng(seed: number) {
  let x = seed >>> 0 || 1;
  return (n: number): number => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

interface Signer {
  alg: Alg;
  sign(input: string): Buffer;
  /** Verification key for both libraries. */
  ours: Uint8Array | JWK;
  jose: Uint8Array | KeyObject;
}

function signer(alg: Alg): Signer {
  const bits = alg.slice(2);
  if (alg.startsWith('HS')) {
    const secret = new Uint8Array(Number(bits) / 8).map(() => Math.floor(Math.random() * 256));
    return { alg, sign: (i) => createHmac(HASH[bits]!, secret).update(i).digest(), ours: secret, jose: secret };
  }
  const pair =
    alg === 'EdDSA'
      ? generateKeyPairSync('ed25519')
      : alg.startsWith('ES')
        ? generateKeyPairSync('ec', { namedCurve: CURVE[alg]! })
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const digest = alg === 'EdDSA' ? null : HASH[bits]!;
  const opts = alg.startsWith('ES')
    ? { key: pair.privateKey, dsaEncoding: 'ieee-p1363' as const }
    : alg.startsWith('PS')
      ? { key: pair.privateKey, padding: 6, saltLength: Number(bits) / 8 }
      : pair.privateKey;
  return {
    alg,
    sign: (i) => nodeSign(digest, Buffer.from(i), opts),
    ours: pair.publicKey.export({ format: 'jwk' }) as JWK,
    jose: pair.publicKey,
  };
}

const b64u = (s: string | Uint8Array) => Buffer.from(s).toString('base64url');

function token(s: Signer, payload: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const input = `${b64u(JSON.stringify({ alg: s.alg, typ: 'JWT', ...header }))}.${b64u(JSON.stringify(payload))}`;
  return `${input}.${b64u(s.sign(input))}`;
}

/** Is every segment the one canonical base64url encoding of its bytes? */
function canonical(t: string): boolean {
  return t.split('.').every((seg) => /^[A-Za-z0-9_-]*$/.test(seg) && b64u(Buffer.from(seg, 'base64url')) === seg);
}

function flip(t: string, segment: number, pick: (n: number) => number): string {
  const parts = t.split('.');
  const seg = parts[segment]!;
  if (seg.length === 0) return t;
  const i = pick(seg.length);
  let c = ALPHABET[pick(64)]!;
  if (c === seg[i]) c = c === 'A' ? 'B' : 'A';
  parts[segment] = seg.slice(0, i) + c + seg.slice(i + 1);
  return parts.join('.');
}

type Verdict = { ok: true } | { ok: false; code: string };

async function ours(v: ReturnType<typeof createVerifier>, t: string): Promise<Verdict> {
  try {
    await v.verify(t);
    return { ok: true };
  } catch (e) {
    return { ok: false, code: (e as { code: string }).code };
  }
}

/** Extra options applied identically to both libraries in half of the cases. */
const STRICT = { clockTolerance: 30, maxTokenAge: 300, typ: 'JWT' };

async function theirs(key: Uint8Array | KeyObject, alg: Alg, t: string, strict: boolean): Promise<Verdict> {
  try {
    await jose.jwtVerify(t, key, {
      algorithms: [alg],
      issuer: ISS,
      audience: AUD,
      currentDate: new Date(NOW * 1000),
      requiredClaims: ['exp'],
      ...(strict ? STRICT : {}),
    });
    return { ok: true };
  } catch (e) {
    return { ok: false, code: (e as { code: string }).code };
  }
}

// jose codes for the outcomes both libraries name the same way.
const SAME_CLASS: Record<string, string> = {
  ERR_JWT_EXPIRED: 'ERR_JWT_EXPIRED',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'ERR_JWS_SIGNATURE_INVALID',
  ERR_JOSE_ALG_NOT_ALLOWED: 'ERR_JWS_ALG_NOT_ALLOWED',
};

describe('differential against jose', () => {
  for (const alg of ALGS) {
    it(`${alg}: ${CASES} tokens, same verdicts (or a documented stricter rule)`, async () => {
      const pick = rng(0x5eed + ALGS.indexOf(alg));
      const key = signer(alg);
      const other = signer(alg);
      const otherAlg = ALGS[(ALGS.indexOf(alg) + 4) % ALGS.length]!;
      const foreign = signer(otherAlg);
      const v = createVerifier({
        algorithms: [alg],
        key: key.ours,
        issuer: ISS,
        audience: AUD,
        currentDate: new Date(NOW * 1000),
        cache: false,
      });
      const vStrict = createVerifier({
        algorithms: [alg],
        key: key.ours,
        issuer: ISS,
        audience: AUD,
        currentDate: new Date(NOW * 1000),
        cache: false,
        ...STRICT,
      });
      // RSA signing is slow: a smaller pool of signed tokens, mutated many ways.
      const pool = alg.startsWith('RS') || alg.startsWith('PS') ? 150 : 600;
      const base = (i: number, extra: Record<string, unknown> = {}) => ({
        iss: ISS,
        aud: i % 3 === 0 ? [AUD, 'other'] : AUD,
        sub: `user-${i}`,
        iat: NOW - 100 - (i % 50),
        exp: NOW + 1 + (i % 5000),
        jti: `${i}-${'x'.repeat(i % 40)}`,
        ...extra,
      });
      const valid = Array.from({ length: pool }, (_, i) => token(key, base(i), i % 2 ? { kid: `k${i}` } : {}));
      const signedBad = [
        ...Array.from({ length: pool / 6 }, (_, i) => token(key, base(i, { exp: NOW - (i % 7) }))),
        ...Array.from({ length: pool / 6 }, (_, i) => token(key, base(i, { nbf: NOW + 1 + (i % 9) }))),
        ...Array.from({ length: pool / 6 }, (_, i) => token(key, base(i, { aud: 'someone-else' }))),
        ...Array.from({ length: pool / 6 }, (_, i) => token(key, base(i, { iss: 'https://evil.example' }))),
        ...Array.from({ length: pool / 6 }, (_, i) => token(other, base(i))),
        ...Array.from({ length: pool / 6 }, (_, i) => token(foreign, base(i))),
        // Near the edges of the strict options: tolerance, max age, typ.
        ...Array.from({ length: pool / 6 }, (_, i) =>
          token(key, base(i, { exp: NOW - 35 + (i % 10), nbf: NOW + 25 + (i % 10) })),
        ),
        ...Array.from({ length: pool / 6 }, (_, i) => token(key, base(i, { iat: NOW - 325 + (i % 10) }))),
        ...Array.from({ length: pool / 6 }, (_, i) =>
          token(key, base(i), { typ: ['at+jwt', 'jwt', 'application/JWT'][i % 3] }),
        ),
      ];
      let accepted = 0;
      let stricter = 0;
      const disagreements: Record<string, number> = {};
      const note = (what: string) => {
        disagreements[what] = (disagreements[what] ?? 0) + 1;
      };
      const kinds = ['valid', 'signedBad', 'header', 'payload', 'signature', 'truncate', 'segments'] as const;
      for (let n = 0; n < CASES; n++) {
        const kind = kinds[pick(kinds.length)]!;
        const src = kind === 'signedBad' ? signedBad[pick(signedBad.length)]! : valid[pick(valid.length)]!;
        let t = src;
        if (kind === 'header') t = flip(src, 0, pick);
        else if (kind === 'payload') t = flip(src, 1, pick);
        else if (kind === 'signature') t = flip(src, 2, pick);
        else if (kind === 'truncate') t = src.slice(0, 1 + pick(src.length - 1));
        else if (kind === 'segments')
          t = pick(2) ? `${src}.${src.split('.')[2]}` : src.split('.').slice(0, 2).join('.');
        const strict = pick(2) === 1;
        const a = await ours(strict ? vStrict : v, t);
        const b = await theirs(key.jose, alg, t, strict);
        if (a.ok) accepted++;
        if (a.ok === b.ok) {
          // Both reject; where jose names a class we share, it must agree, except that we
          // report non-canonical base64url and an empty signature as malformed before any crypto.
          if (!a.ok && !b.ok && SAME_CLASS[b.code] !== undefined && SAME_CLASS[b.code] !== a.code) {
            if (!(a.code === 'ERR_JWT_MALFORMED' && (!canonical(t) || t.endsWith('.'))))
              note(`${kind}: ours ${a.code}, jose ${b.code}`);
          }
          continue;
        }
        // Documented stricter rule: non-canonical base64url (jose's decoder ignores the
        // unused trailing bits of a segment, so a signature differing only there verifies).
        if (!a.ok && b.ok && a.code === 'ERR_JWT_MALFORMED' && !canonical(t)) {
          stricter++;
          continue;
        }
        note(`${kind}: ours ${a.ok ? 'OK' : a.code}, jose ${b.ok ? 'OK' : b.code}`);
      }
      expect(disagreements).toEqual({});
      // The generator must actually produce accepted tokens (the test would be vacuous otherwise).
      expect(accepted).toBeGreaterThan(CASES / 10);
      expect(stricter).toBeLessThan(CASES / 20);
    }, 300_000);
  }
});
