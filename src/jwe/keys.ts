// JWE keys (RFC 7516 §4.1, RFC 7518 §4): the decryption key set and the recipient
// key of an encrypter, with the key management step of each algorithm. Every
// primitive is WebCrypto's (the Concat KDF hashes in the Wasm core). Imported
// CryptoKeys are kept per key, so a `dir` or RSA key is imported once.

import { MIN_RSA_BITS } from '../algorithms.js';
import { decodeSegment } from '../b64.js';
import { JwtError } from '../errors.js';
import { jweError } from './error.js';
import { checkEcPoint } from '../keys/ec-point.js';
import { bad, bitLength, keyOps } from '../keys/jwk-bytes.js';
import type { PrivateJWK } from '../sign/keys.js';
import { KW_LENGTH, type EncSpec, type KeyManagement } from './algorithms.js';
import { gcmDecryptionKey } from './content.js';
import { ecdhPairMatches, oaepPairMatches } from './key-pair.js';
import { concatKdf } from './kdf.js';

/**
 * A JWK for JWE: `oct` secrets (dir, A*KW), RSA private/public keys, EC P-256/P-384 and OKP X25519 keys.
 * The same members as a signing key's JWK; `use`/`key_ops` must allow encryption here.
 */
export type EncryptionJWK = PrivateJWK;

/** Raw bytes are a `dir` or AES-KW secret. */
export type EncryptionKeyInput = EncryptionJWK | Uint8Array;

const CURVE_BYTES: Record<string, number> = { 'P-256': 32, 'P-384': 48, X25519: 32 };

function b64(
  value: unknown,
  what: string,
  code: 'ERR_KEY_INVALID' | 'ERR_JWE_HEADER_INVALID' | 'ERR_JWE_EPK_INVALID' = 'ERR_KEY_INVALID',
): Uint8Array {
  const bytes = typeof value === 'string' ? decodeSegment(value, 0, value.length) : undefined;
  if (bytes === undefined) throw new JwtError(code, { reason: `${what} is not base64url` });
  return bytes;
}

function ecdhParams(crv: string): EcKeyImportParams | Algorithm {
  return crv === 'X25519' ? { name: 'X25519' } : { name: 'ECDH', namedCurve: crv };
}

function publicPart(jwk: EncryptionJWK): JsonWebKey {
  return jwk.kty === 'EC'
    ? { kty: 'EC', crv: jwk.crv!, x: jwk.x!, y: jwk.y! }
    : { kty: 'OKP', crv: jwk.crv!, x: jwk.x! };
}

function privatePart(jwk: EncryptionJWK): JsonWebKey {
  const { kty, crv, x, y, d, n, e, p, q, dp, dq, qi } = jwk;
  return Object.fromEntries(
    Object.entries({ kty, crv, x, y, d, n, e, p, q, dp, dq, qi }).filter(([, v]) => v !== undefined),
  ) as JsonWebKey;
}

/** One key as the JWE layer holds it, checked once at construction. */
export class JweKey {
  readonly kid: string | undefined;
  readonly alg: string | undefined;
  readonly kty: 'oct' | 'RSA' | 'EC' | 'OKP';
  readonly crv: string | undefined;
  readonly isPrivate: boolean;
  readonly #secret: Uint8Array | undefined;
  readonly #jwk: EncryptionJWK | undefined;
  readonly #imports = new Map<string, Promise<CryptoKey>>();
  /** The `dir` AES-GCM key once imported (bytes under node). */
  #dirGcm: CryptoKey | Uint8Array | undefined;

  constructor(input: EncryptionKeyInput, purpose: 'decrypt' | 'encrypt') {
    if (input instanceof Uint8Array) {
      this.kty = 'oct';
      this.#secret = input.slice();
      this.kid = undefined;
      this.alg = undefined;
      this.crv = undefined;
      this.isPrivate = true;
      return;
    }
    if (typeof input !== 'object' || input === null) throw bad('unsupported key input');
    const jwk = input;
    if (jwk.kid !== undefined && typeof jwk.kid !== 'string') throw bad('kid is not a string');
    if (jwk.alg !== undefined && typeof jwk.alg !== 'string') throw bad('alg is not a string');
    // RFC 7517 §4.2: a signature key never decrypts.
    if (jwk.use !== undefined && jwk.use !== 'enc') throw bad('use rules out encryption');
    const ops = keyOps(jwk.key_ops);
    const allowedOps =
      purpose === 'decrypt'
        ? ['decrypt', 'unwrapKey', 'deriveKey', 'deriveBits']
        : ['encrypt', 'wrapKey', 'deriveKey', 'deriveBits'];
    if (ops !== undefined && !ops.some((o) => allowedOps.includes(o))) throw bad('key_ops rule out this use');
    this.kid = jwk.kid;
    this.alg = jwk.alg;
    this.isPrivate = jwk.d !== undefined || jwk.kty === 'oct';
    if (purpose === 'decrypt' && !this.isPrivate) throw bad('a decryption key must be private');
    switch (jwk.kty) {
      case 'oct':
        this.kty = 'oct';
        this.#secret = b64(jwk.k, 'k');
        this.crv = undefined;
        break;
      case 'RSA':
        this.kty = 'RSA';
        if (bitLength(b64(jwk.n, 'n')) < MIN_RSA_BITS)
          throw new JwtError('ERR_KEY_TOO_SHORT', { reason: 'RSA modulus below 2048 bits' });
        b64(jwk.e, 'e');
        // Checked here because JWK importers differ: some skip characters they do not know.
        for (const m of ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const) if (jwk[m] !== undefined) b64(jwk[m], m);
        this.crv = undefined;
        break;
      case 'EC':
      case 'OKP': {
        this.kty = jwk.kty;
        const size = typeof jwk.crv === 'string' && Object.hasOwn(CURVE_BYTES, jwk.crv) ? CURVE_BYTES[jwk.crv]! : 0;
        if (size === 0 || (jwk.kty === 'OKP') !== (jwk.crv === 'X25519'))
          throw bad('unsupported curve (P-256, P-384, X25519)');
        if (b64(jwk.x, 'x').length !== size || (jwk.kty === 'EC' && b64(jwk.y, 'y').length !== size))
          throw bad('coordinate length');
        if (jwk.d !== undefined && b64(jwk.d, 'd').length !== size) throw bad('private scalar length');
        if (jwk.kty === 'EC') checkEcPoint(jwk);
        this.crv = jwk.crv;
        break;
      }
      default:
        throw bad('unsupported kty');
    }
    this.#jwk = jwk;
  }

  /** Can this key serve `alg` with `enc`? */
  fits(alg: KeyManagement, enc: EncSpec): boolean {
    // A `dir` key may name the content encryption it serves instead (RFC 7520 §5.6 does).
    if (this.alg !== undefined && this.alg !== alg && !(alg === 'dir' && this.alg === enc.enc)) return false;
    switch (alg) {
      case 'dir':
        return this.kty === 'oct' && this.#secret!.length === enc.cekLength;
      case 'A128KW':
      case 'A256KW':
        return this.kty === 'oct' && this.#secret!.length === KW_LENGTH[alg];
      case 'RSA-OAEP-256':
        return this.kty === 'RSA';
      case 'ECDH-ES':
      case 'ECDH-ES+A128KW':
      case 'ECDH-ES+A256KW':
        return this.kty === 'EC' || this.kty === 'OKP';
    }
  }

  #imported(name: string, make: () => Promise<CryptoKey>): Promise<CryptoKey> {
    let p = this.#imports.get(name);
    if (p === undefined) {
      // A key WebCrypto will not import (a JWK without its CRT members, say) is a key error, typed.
      p = make().catch((cause: unknown) => {
        throw cause instanceof JwtError
          ? cause
          : new JwtError('ERR_KEY_INVALID', { reason: 'the runtime refused to import the key' });
      });
      p.catch(() => undefined);
      this.#imports.set(name, p);
    }
    return p;
  }

  /**
   * Decrypt side: the CEK (bytes, or an imported AES-GCM key for `dir`). For `dir` with
   * AES-GCM the key once imported is returned as it is, not as a promise.
   */
  unwrap(
    alg: KeyManagement,
    enc: EncSpec,
    header: Readonly<Record<string, unknown>>,
    encryptedKey: Uint8Array,
  ): Uint8Array | CryptoKey | Promise<Uint8Array | CryptoKey> {
    if (alg === 'dir' && enc.kind === 'gcm' && encryptedKey.length === 0) {
      // Under node the cipher takes the bytes: no import, so no promise even on the first token.
      if (this.#dirGcm === undefined && !this.#imports.has('gcm:decrypt')) {
        const k = gcmDecryptionKey(this.#secret!);
        if (!(k instanceof Promise)) this.#dirGcm = k;
        else
          this.#imported('gcm:decrypt', () => k).then(
            (key) => (this.#dirGcm = key),
            () => undefined,
          );
      }
      if (this.#dirGcm !== undefined) return this.#dirGcm;
    }
    return this.#unwrap(alg, enc, header, encryptedKey);
  }

  async #unwrap(
    alg: KeyManagement,
    enc: EncSpec,
    header: Readonly<Record<string, unknown>>,
    encryptedKey: Uint8Array,
  ): Promise<Uint8Array | CryptoKey> {
    switch (alg) {
      case 'dir':
        if (encryptedKey.length !== 0)
          throw jweError('ERR_JWE_CEK_INVALID', { reason: 'dir carries no encrypted key' });
        if (enc.kind === 'gcm') {
          // Imported once (the backend call itself starts an import; under node it returns the bytes).
          // Reached while the import started by unwrap() is in flight (or for a malformed dir token).
          const k = this.#imports.get('gcm:decrypt') ?? gcmDecryptionKey(this.#secret!);
          this.#dirGcm = k instanceof Promise ? await this.#imported('gcm:decrypt', () => k) : k;
          return this.#dirGcm;
        }
        return this.#secret!;
      case 'A128KW':
      case 'A256KW':
        return cekOrRandom(
          aesKwUnwrap(
            await this.#imported('kw', () =>
              crypto.subtle.importKey('raw', this.#secret! as BufferSource, 'AES-KW', false, ['unwrapKey', 'wrapKey']),
            ),
            encryptedKey,
            enc.cekLength,
          ),
          enc.cekLength,
        );
      case 'RSA-OAEP-256': {
        // The private key is shown to match its public part before its first use (key-pair.ts).
        const key = await this.#imported('oaep', () =>
          crypto.subtle
            .importKey('jwk', privatePart(this.#jwk!), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['decrypt'])
            .then((k) => oaepPairMatches(k, { kty: 'RSA', n: this.#jwk!.n!, e: this.#jwk!.e! })),
        );
        return cekOrRandom(rsaOaepDecrypt(key, encryptedKey), enc.cekLength);
      }
      case 'ECDH-ES':
      case 'ECDH-ES+A128KW':
      case 'ECDH-ES+A256KW': {
        const epk = await this.#importEpk(header.epk);
        const priv = await this.#imported('ecdh', () =>
          crypto.subtle
            .importKey('jwk', privatePart(this.#jwk!), ecdhParams(this.crv!), false, ['deriveBits'])
            .then((k) =>
              ecdhPairMatches(k, publicPart(this.#jwk!), ecdhParams(this.crv!), CURVE_BYTES[this.crv!]! * 8),
            ),
        );
        const z = await deriveShared(epk, priv, this.crv!);
        const apu = header.apu === undefined ? new Uint8Array(0) : b64(header.apu, 'apu', 'ERR_JWE_HEADER_INVALID');
        const apv = header.apv === undefined ? new Uint8Array(0) : b64(header.apv, 'apv', 'ERR_JWE_HEADER_INVALID');
        if (alg === 'ECDH-ES') {
          if (encryptedKey.length !== 0)
            throw jweError('ERR_JWE_CEK_INVALID', { reason: 'ECDH-ES carries no encrypted key' });
          return concatKdf(z, enc.enc, apu, apv, enc.cekLength);
        }
        const kek = concatKdf(z, alg, apu, apv, KW_LENGTH[alg]!);
        const kekKey = await crypto.subtle.importKey('raw', kek as BufferSource, 'AES-KW', false, ['unwrapKey']);
        kek.fill(0);
        return cekOrRandom(aesKwUnwrap(kekKey, encryptedKey, enc.cekLength), enc.cekLength);
      }
    }
  }

  /**
   * The sender's ephemeral key: same kty and curve as ours, on the curve (checked by src/keys/ec-point.ts before any
   * import).
   */
  async #importEpk(epk: unknown): Promise<CryptoKey> {
    if (typeof epk !== 'object' || epk === null || Array.isArray(epk))
      throw jweError('ERR_JWE_EPK_INVALID', { reason: 'epk missing' });
    const e = epk as Record<string, unknown>;
    if (e.kty !== this.kty || e.crv !== this.crv || e.d !== undefined)
      throw jweError('ERR_JWE_EPK_INVALID', { reason: 'epk is not a public key on the recipient curve' });
    const size = CURVE_BYTES[this.crv!]!;
    if (
      b64(e.x, 'x', 'ERR_JWE_EPK_INVALID').length !== size ||
      (this.kty === 'EC' && b64(e.y, 'y', 'ERR_JWE_EPK_INVALID').length !== size)
    ) {
      throw jweError('ERR_JWE_EPK_INVALID', { reason: 'coordinate length' });
    }
    // Network input: the invalid-curve attack on ECDH-ES is refused here, not left to the runtime.
    if (this.kty === 'EC') checkEcPoint(e, 'ERR_JWE_EPK_INVALID');
    try {
      return await crypto.subtle.importKey(
        'jwk',
        publicPart(e as unknown as EncryptionJWK),
        ecdhParams(this.crv!),
        true,
        [],
      );
    } catch {
      throw jweError('ERR_JWE_EPK_INVALID', { reason: 'not a point on the curve' });
    }
  }

  /** Encrypt side: a fresh CEK (or the derived / direct one), its encrypted form, and header members to add. */
  async wrap(
    alg: KeyManagement,
    enc: EncSpec,
  ): Promise<{ cek: Uint8Array; encryptedKey: Uint8Array; header: Record<string, unknown> }> {
    const fresh = (): Uint8Array => crypto.getRandomValues(new Uint8Array(enc.cekLength));
    switch (alg) {
      case 'dir':
        return { cek: this.#secret!, encryptedKey: new Uint8Array(0), header: {} };
      case 'A128KW':
      case 'A256KW': {
        const kek = await this.#imported('kw', () =>
          crypto.subtle.importKey('raw', this.#secret! as BufferSource, 'AES-KW', false, ['unwrapKey', 'wrapKey']),
        );
        const cek = fresh();
        return { cek, encryptedKey: await aesKwWrap(kek, cek), header: {} };
      }
      case 'RSA-OAEP-256': {
        const jwk = this.#jwk!;
        const key = await this.#imported('oaep-pub', () =>
          crypto.subtle.importKey(
            'jwk',
            { kty: 'RSA', n: jwk.n!, e: jwk.e! },
            { name: 'RSA-OAEP', hash: 'SHA-256' },
            false,
            ['encrypt'],
          ),
        );
        const cek = fresh();
        return {
          cek,
          encryptedKey: new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, cek as BufferSource)),
          header: {},
        };
      }
      case 'ECDH-ES':
      case 'ECDH-ES+A128KW':
      case 'ECDH-ES+A256KW': {
        const recipient = await this.#imported('ecdh-pub', () =>
          crypto.subtle.importKey('jwk', publicPart(this.#jwk!), ecdhParams(this.crv!), true, []),
        );
        const pair = (await crypto.subtle.generateKey(ecdhParams(this.crv!) as EcKeyGenParams, true, [
          'deriveBits',
        ])) as CryptoKeyPair;
        const z = await deriveShared(recipient, pair.privateKey, this.crv!);
        const full = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as EncryptionJWK;
        const epk = publicPart(full);
        const none = new Uint8Array(0);
        if (alg === 'ECDH-ES')
          return { cek: concatKdf(z, enc.enc, none, none, enc.cekLength), encryptedKey: none, header: { epk } };
        const kek = concatKdf(z, alg, none, none, KW_LENGTH[alg]!);
        const kekKey = await crypto.subtle.importKey('raw', kek as BufferSource, 'AES-KW', false, ['wrapKey']);
        kek.fill(0);
        const cek = fresh();
        return { cek, encryptedKey: await aesKwWrap(kekKey, cek), header: { epk } };
      }
    }
  }
}

/**
 * RFC 7516 §11.5: a recipient must not tell apart the format, padding and length faults
 * of an encrypted key. Whatever went wrong recovering the CEK (or a CEK of the wrong
 * length), the token goes on with a random CEK of the right length and fails at the
 * content's authentication: the same code, by the same path, as a forged tag.
 */
async function cekOrRandom(recovered: Promise<Uint8Array>, length: number): Promise<Uint8Array> {
  let cek: Uint8Array | undefined;
  try {
    cek = await recovered;
  } catch (e) {
    if (!(e instanceof JwtError) || e.code !== 'ERR_JWE_DECRYPTION_FAILED') throw e;
  }
  if (cek !== undefined && cek.length === length) return cek;
  cek?.fill(0);
  return crypto.getRandomValues(new Uint8Array(length));
}

/** RSA-OAEP-256 decryption of an encrypted key; any failure is ERR_JWE_DECRYPTION_FAILED. */
export async function rsaOaepDecrypt(key: CryptoKey, encryptedKey: Uint8Array): Promise<Uint8Array> {
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, key, encryptedKey as BufferSource));
  } catch {
    throw jweError('ERR_JWE_DECRYPTION_FAILED');
  }
}

/** ECDH (P-256/P-384) or X25519 shared secret; a refused or degenerate agreement is ERR_JWE_EPK_INVALID. */
export async function deriveShared(publicKey: CryptoKey, privateKey: CryptoKey, crv: string): Promise<Uint8Array> {
  let z: Uint8Array;
  try {
    const params = crv === 'X25519' ? { name: 'X25519', public: publicKey } : { name: 'ECDH', public: publicKey };
    z = new Uint8Array(
      await crypto.subtle.deriveBits(params as EcdhKeyDeriveParams, privateKey, CURVE_BYTES[crv]! * 8),
    );
  } catch {
    throw jweError('ERR_JWE_EPK_INVALID', { reason: 'key agreement failed' });
  }
  // X25519 with a small-order point yields zero: refuse it (RFC 7748 §6.1) wherever the runtime does not.
  // (On P-256/P-384 an x-coordinate of zero is a genuine point: only X25519 is checked.)
  let any = crv === 'X25519' ? 0 : 1;
  for (const b of z) any |= b;
  if (any === 0) throw jweError('ERR_JWE_EPK_INVALID', { reason: 'degenerate shared secret' });
  return z;
}

/**
 * RFC 3394 unwrap through WebCrypto; any failure, a wrapped CEK of the wrong length included, is
 * ERR_JWE_DECRYPTION_FAILED.
 */
export async function aesKwUnwrap(kek: CryptoKey, wrapped: Uint8Array, cekLength: number): Promise<Uint8Array> {
  if (wrapped.length !== cekLength + 8) throw jweError('ERR_JWE_DECRYPTION_FAILED');
  // RFC 3394 §2: at least two 64-bit blocks of key data (some runtimes unwrap one).
  if (wrapped.length < 24 || wrapped.length % 8 !== 0) throw jweError('ERR_JWE_DECRYPTION_FAILED');
  try {
    // Unwrapped as an extractable HMAC key only to read its bytes back (any length is allowed there).
    const key = await crypto.subtle.unwrapKey(
      'raw',
      wrapped as BufferSource,
      kek,
      'AES-KW',
      { name: 'HMAC', hash: 'SHA-256', length: cekLength * 8 },
      true,
      ['sign'],
    );
    return new Uint8Array(await crypto.subtle.exportKey('raw', key));
  } catch {
    throw jweError('ERR_JWE_DECRYPTION_FAILED');
  }
}

async function aesKwWrap(kek: CryptoKey, cek: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    cek as BufferSource,
    { name: 'HMAC', hash: 'SHA-256', length: cek.length * 8 },
    true,
    ['sign'],
  );
  return new Uint8Array(await crypto.subtle.wrapKey('raw', key, kek, 'AES-KW'));
}
