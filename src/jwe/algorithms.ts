// The JWE algorithms accepted (RFC 7518 §4 and §5), and the named refusals. Anything
// else is outside the allow-list. AES-192 is left out: some browsers lack it, and a
// token must get the same answer in every runtime.

import { JwtError } from '../errors.js';
import { jweError } from './error.js';

export type KeyManagement =
  'dir' | 'A128KW' | 'A256KW' | 'RSA-OAEP-256' | 'ECDH-ES' | 'ECDH-ES+A128KW' | 'ECDH-ES+A256KW';
export type ContentEncryption = 'A128GCM' | 'A256GCM' | 'A128CBC-HS256' | 'A256CBC-HS512';

export interface EncSpec {
  readonly enc: ContentEncryption;
  /** CEK length in bytes (CBC-HS: MAC key then encryption key, RFC 7518 §5.2.2.1). */
  readonly cekLength: number;
  readonly kind: 'gcm' | 'cbc-hs';
  /** IV length in bytes. */
  readonly ivLength: number;
  /** Authentication tag length in bytes. */
  readonly tagLength: number;
}

export const KEY_MANAGEMENT: readonly KeyManagement[] = [
  'dir',
  'A128KW',
  'A256KW',
  'RSA-OAEP-256',
  'ECDH-ES',
  'ECDH-ES+A128KW',
  'ECDH-ES+A256KW',
];

const ENC: Record<ContentEncryption, EncSpec> = {
  A128GCM: { enc: 'A128GCM', cekLength: 16, kind: 'gcm', ivLength: 12, tagLength: 16 },
  A256GCM: { enc: 'A256GCM', cekLength: 32, kind: 'gcm', ivLength: 12, tagLength: 16 },
  'A128CBC-HS256': { enc: 'A128CBC-HS256', cekLength: 32, kind: 'cbc-hs', ivLength: 16, tagLength: 16 },
  'A256CBC-HS512': { enc: 'A256CBC-HS512', cekLength: 64, kind: 'cbc-hs', ivLength: 16, tagLength: 32 },
};

export const CONTENT_ENCRYPTION: readonly ContentEncryption[] = Object.keys(ENC) as ContentEncryption[];

/** Key-wrap key length in bytes for the AES-KW family (the ECDH-ES+A256KW KEK too). */
export const KW_LENGTH: Record<string, number> = { A128KW: 16, A256KW: 32, 'ECDH-ES+A128KW': 16, 'ECDH-ES+A256KW': 32 };

/** The spec for `enc`, or undefined. */
export function encSpec(enc: string): EncSpec | undefined {
  return Object.hasOwn(ENC, enc) ? ENC[enc as ContentEncryption] : undefined;
}

export function isKeyManagement(alg: string): alg is KeyManagement {
  return (KEY_MANAGEMENT as readonly string[]).includes(alg);
}

/**
 * Throws ERR_JWE_ALG_NOT_ALLOWED unless `alg` is in `allowed`; the well-known
 * dangerous ones say why they are never accepted.
 */
export function checkKeyManagement(alg: string, allowed: ReadonlySet<string>): KeyManagement {
  if (alg === 'RSA1_5') throw jweError('ERR_JWE_ALG_NOT_ALLOWED', { reason: 'RSA1_5 is refused (padding oracle)' });
  if (alg.startsWith('PBES2-'))
    throw jweError('ERR_JWE_ALG_NOT_ALLOWED', { reason: 'PBES2 is refused (unbounded p2c work)' });
  if (!isKeyManagement(alg) || !allowed.has(alg))
    throw jweError('ERR_JWE_ALG_NOT_ALLOWED', { reason: 'alg outside the allow-list' });
  return alg;
}

export function checkContentEncryption(enc: string, allowed: ReadonlySet<string>): EncSpec {
  const spec = encSpec(enc);
  if (spec === undefined || !allowed.has(enc))
    throw jweError('ERR_JWE_ALG_NOT_ALLOWED', { reason: 'enc outside the allow-list' });
  return spec;
}

/** Key management that only the holder of a shared secret can perform: the plaintext is authenticated by it. */
export function isSymmetric(alg: KeyManagement): boolean {
  return alg === 'dir' || alg === 'A128KW' || alg === 'A256KW';
}
