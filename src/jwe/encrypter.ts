// createEncrypter: compact JWE (RFC 7516 §5.1) for the algorithms the decryptor
// accepts. A string argument is a signed JWT, sent as a nested JWT (cty "JWT");
// an object is a claims set encrypted directly, under a shared key only: the
// decryptor refuses direct claims under RSA-OAEP or ECDH-ES, so the encrypter does
// not make them (ERR_JWE_NESTED_REQUIRED on both sides). Header members that
// replicate iss/sub/aud must match the claims, as the decryptor requires.

import { base64UrlOfBytes, base64UrlOfText } from '#platform';
import { JwtError } from '../errors.js';
import { jweError } from './error.js';
import { checkOptionNames, type OptionNames } from '../option-names.js';
import { optionsError as invalid } from '../options-error.js';
import { decodeSegment } from '../b64.js';
import { parsePayload } from '../payload.js';
import { isPlainObject } from '../sign/claims.js';
import {
  checkContentEncryption,
  checkKeyManagement,
  CONTENT_ENCRYPTION,
  isSymmetric,
  KEY_MANAGEMENT,
  type KeyManagement,
} from './algorithms.js';
import { encryptContent } from './content.js';
import { JweKey, type EncryptionKeyInput } from './keys.js';
import { checkReplicated } from './replicated.js';

/**
 * Options of createEncrypter.
 *
 * @example
 * ```ts
 * const options: EncrypterOptions = { alg: 'dir', enc: 'A256GCM', key: sharedKeyBytes, header: { kid: 'k1' } };
 * ```
 */
export interface EncrypterOptions {
  /** Key management: dir, A128KW, A256KW, RSA-OAEP-256, ECDH-ES, ECDH-ES+A256KW. */
  alg: string;
  /** Content encryption: A128GCM, A256GCM, A128CBC-HS256, A256CBC-HS512. */
  enc: string;
  /** The recipient's public JWK, or the shared secret (bytes or `oct` JWK) for dir / AES-KW. */
  key: EncryptionKeyInput;
  /** Extra protected header members (e.g. `kid`); alg, enc, epk, zip and crit are not settable. */
  header?: Record<string, unknown>;
}

/** The names createEncrypter accepts: checkOptionNames refuses any other (a misspelt option would turn a check off). */
export const ENCRYPTER_OPTION_NAMES = {
  alg: true,
  enc: true,
  key: true,
  header: true,
} as const satisfies OptionNames<EncrypterOptions>;

/**
 * An encrypter for one recipient key (see createEncrypter).
 *
 * @example
 * ```ts
 * const jwe = await encrypter.encrypt(signedJwt); // nested JWT, cty "JWT"
 * ```
 */
export interface Encrypter {
  /** Encrypt a compact JWS (nested JWT, cty "JWT") or a JWT claims object. */
  encrypt(payloadOrJws: string | Record<string, unknown>): Promise<string>;
}

const RESERVED = new Set(['alg', 'enc', 'epk', 'zip', 'crit', 'apu', 'apv', 'iv', 'tag', 'p2s', 'p2c']);
const JWS_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/;

/**
 * Create an encrypter for one recipient key.
 *
 * @example
 * ```ts
 * import { createEncrypter, createSigner } from 'edgejwt';
 *
 * const jws = await createSigner({ alg: 'EdDSA', key: signingJwk }).sign({ sub: 'u1' }, { expiresIn: 300 });
 * const jwe = await createEncrypter({ alg: 'ECDH-ES+A256KW', enc: 'A256GCM', key: recipientPublicJwk }).encrypt(jws);
 * ```
 */
export function createEncrypter(options: EncrypterOptions): Encrypter {
  if (typeof options !== 'object' || options === null) throw invalid('options', 'expected an object');
  checkOptionNames(options, ENCRYPTER_OPTION_NAMES);
  // RSA1_5, PBES2-* and anything else outside the list: ERR_JWE_ALG_NOT_ALLOWED, as on the decrypt side.
  const alg: KeyManagement = checkKeyManagement(String(options.alg), new Set(KEY_MANAGEMENT));
  const enc = checkContentEncryption(String(options.enc), new Set(CONTENT_ENCRYPTION));
  const extra = options.header ?? {};
  if (!isPlainObject(extra)) throw invalid('header', 'expected a plain object');
  for (const name of Object.keys(extra))
    if (RESERVED.has(name)) throw invalid('header', `${name} is set by the encrypter`);
  const key = new JweKey(options.key, 'encrypt');
  if (!key.fits(alg, enc)) throw new JwtError('ERR_KEY_ALG_MISMATCH', { reason: 'the key does not fit alg/enc' });
  const encoder = new TextEncoder();

  return {
    async encrypt(payloadOrJws) {
      let plaintext: string;
      let cty: Record<string, unknown> = {};
      if (typeof payloadOrJws === 'string') {
        if (!JWS_SHAPE.test(payloadOrJws))
          throw new JwtError('ERR_JWT_MALFORMED', { reason: 'expected a compact JWS' });
        plaintext = payloadOrJws;
        cty = { cty: 'JWT' };
        if (replicates(extra)) checkReplicated(extra, jwsClaims(payloadOrJws));
      } else if (isPlainObject(payloadOrJws)) {
        // Anyone with the recipient's public key could have made such a token: the recipient cannot trust it.
        if (!isSymmetric(alg))
          throw jweError('ERR_JWE_NESTED_REQUIRED', {
            reason: 'direct claims need a shared key (dir, A128KW, A256KW): encrypt a signed JWT',
          });
        checkReplicated(extra, payloadOrJws);
        plaintext = JSON.stringify(payloadOrJws);
      } else {
        throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: 'expected a compact JWS or a claims object' });
      }
      const wrapped = await key.wrap(alg, enc);
      const protectedSegment = base64UrlOfText(
        JSON.stringify({ alg, enc: enc.enc, ...cty, ...extra, ...wrapped.header }),
      );
      const sealed = await encryptContent(
        enc,
        wrapped.cek,
        encoder.encode(protectedSegment),
        encoder.encode(plaintext),
      );
      if (alg !== 'dir') wrapped.cek.fill(0);
      return [
        protectedSegment,
        base64UrlOfBytes(wrapped.encryptedKey),
        base64UrlOfBytes(sealed.iv),
        base64UrlOfBytes(sealed.ciphertext),
        base64UrlOfBytes(sealed.tag),
      ].join('.');
    },
  };
}

function replicates(header: Record<string, unknown>): boolean {
  return Object.hasOwn(header, 'iss') || Object.hasOwn(header, 'sub') || Object.hasOwn(header, 'aud');
}

/** The claims of the caller's own compact JWS, read (not verified) to compare replicated header members. */
function jwsClaims(jws: string): Record<string, unknown> {
  const start = jws.indexOf('.') + 1;
  const bytes = decodeSegment(jws, start, jws.indexOf('.', start));
  if (bytes === undefined) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'the JWS payload is not base64url' });
  return parsePayload(bytes);
}
