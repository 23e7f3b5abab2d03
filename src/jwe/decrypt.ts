// Opening a compact JWE (RFC 7516 §5.2): five segments, the protected header held
// to the allow-lists, exactly one key chosen, the CEK recovered and its length
// checked, the content decrypted and authenticated with the encoded header as AAD.
// The plaintext goes back to the verifier: JWT claims, or a nested JWS (cty JWT)
// that is verified as any other token.

import { decodeBase64Url } from '#platform';
import { JwtError } from '../errors.js';
import { checkOptionNames, type OptionNames } from '../option-names.js';
import { optionsError as invalidOption } from '../options-error.js';
import { utf8 } from '../utf8.js';
import { CONTENT_ENCRYPTION, KEY_MANAGEMENT } from './algorithms.js';
import { decryptContent, type Sealed } from './content.js';
import { parseJweHeader, type JweHeader } from './header.js';
import { JweKey, type EncryptionKeyInput } from './keys.js';

/**
 * The options of jweDecryption, createVerifier's `decryption`.
 *
 * @example
 * ```ts
 * const verifier = createVerifier({
 *   algorithms: ['ES256'],
 *   jwks,
 *   decryption: jweDecryption({
 *     keys: [recipientPrivateJwk],
 *     algorithms: ['ECDH-ES+A256KW'],
 *     encryptions: ['A256GCM'],
 *   }),
 * });
 * const { payload } = await verifier.verify(jweOrJws);
 * ```
 */
export interface DecryptionOptions {
  /**
   * Private keys (JWK) or `dir`/AES-KW secrets (bytes, or `oct` JWKs). A token's `kid` picks among them.
   * `{ key, issuer }` binds a shared key to one issuer: the unsigned claims it opens are accepted as that
   * issuer only (see IssuerBoundKey).
   */
  keys: readonly (EncryptionKeyInput | IssuerBoundKey)[];
  /** Allowed key management `alg` values (default: all supported). */
  algorithms?: readonly string[];
  /** Allowed content encryption `enc` values (default: all supported). */
  encryptions?: readonly string[];
}

/**
 * The names the `decryption` option accepts: checkOptionNames refuses any other (a misspelt option would turn a check
 * off).
 */
export const DECRYPTION_OPTION_NAMES = {
  keys: true,
  algorithms: true,
  encryptions: true,
} as const satisfies OptionNames<DecryptionOptions>;

/**
 * A decryption key bound to one issuer. Direct (unsigned) claims carry no proof of who
 * made them, only that someone holding this key did: they are accepted as `issuer` and
 * nobody else, and an `iss` naming anyone else is refused (RFC 8725 §3.8, §3.11). Under
 * `issuers`, a shared key must be bound to one of them for its direct claims to count.
 *
 * @example
 * ```ts
 * const verifier = createVerifier({
 *   issuers: [a, b],
 *   decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: 'https://a.example' }] }),
 * });
 * ```
 */
export interface IssuerBoundKey {
  key: EncryptionKeyInput;
  /** The one issuer whose direct claims this key opens. */
  issuer: string;
}

export interface OpenedJwe {
  readonly header: JweHeader;
  /** The issuer the key that opened this token is bound to (IssuerBoundKey), or undefined. */
  readonly issuer: string | undefined;
  /** The plaintext as UTF-8 text. */
  readonly plaintext: string;
}

export interface Decryptor {
  /** Every issuer a key is bound to, for the verifier to check against its policies. */
  readonly issuers: ReadonlySet<string>;
  /** May throw (a malformed token) or return a promise (a key import or a cipher that answers later). */
  open(token: string): OpenedJwe | Promise<OpenedJwe>;
}

function optionsError(setting: string, reason: string) {
  return invalidOption(`decryption.${setting}`, reason);
}

function allowList(value: unknown, all: readonly string[], setting: string): ReadonlySet<string> {
  if (value === undefined) return new Set(all);
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string' || !all.includes(v))) {
    throw optionsError(setting, `a non-empty list of: ${all.join(', ')}`);
  }
  return new Set(value as string[]);
}

/** Four dots: the compact JWE shape (a JWS has two). */
export function isCompactJwe(token: unknown): token is string {
  if (typeof token !== 'string') return false;
  let dots = 0;
  for (let i = token.indexOf('.'); i >= 0; i = token.indexOf('.', i + 1)) if (++dots > 4) return false;
  return dots === 4;
}

function segment(token: string, start: number, end: number, what: string): Uint8Array {
  // Strict base64url, native where the runtime has a decoder (the ciphertext is most of the token).
  const bytes = decodeBase64Url(token.slice(start, end));
  if (bytes === undefined)
    throw new JwtError('ERR_JWT_MALFORMED', { reason: `JWE ${what} is not canonical base64url` });
  return bytes;
}

export function createDecryptor(options: DecryptionOptions, maxLength: number): Decryptor {
  if (typeof options !== 'object' || options === null) throw optionsError('keys', 'expected { keys }');
  checkOptionNames(options, DECRYPTION_OPTION_NAMES, 'decryption');
  if (!Array.isArray(options.keys) || options.keys.length === 0) throw optionsError('keys', 'at least one key');
  const bound = options.keys.map((k, i) => boundKey(k, i));
  const keys = bound.map((b) => b.key);
  const issuerOf = new Map(bound.map((b) => [b.key, b.issuer]));
  const algs = allowList(options.algorithms, KEY_MANAGEMENT, 'algorithms');
  const encs = allowList(options.encryptions, CONTENT_ENCRYPTION, 'encryptions');
  const encoder = new TextEncoder();

  // A sender reuses one header (`dir`, AES-KW, RSA) on every token: remember the last few parses.
  // Keyed by the exact segment; ECDH-ES headers carry a fresh epk each time and simply miss.
  // With the parse go the AAD bytes (RFC 7516 §5.2 step 14: the ASCII of the encoded protected
  // header) and the key it picks, both fixed by the header segment alone.
  const headers = new Map<string, HeaderEntry>();
  function cachedHeader(segment: string): HeaderEntry {
    let e = headers.get(segment);
    if (e === undefined) {
      const header = parseJweHeader(segment, algs, encs);
      e = { header, aad: encoder.encode(segment), key: pick(header) };
      if (headers.size >= 16) headers.clear();
      headers.set(segment, e);
    }
    return e;
  }

  function pick(h: JweHeader): JweKey {
    let found = keys.filter(
      (k) => k.fits(h.alg, h.enc) && (h.kid === undefined || k.kid === undefined || k.kid === h.kid),
    );
    if (h.kid !== undefined && found.some((k) => k.kid === h.kid)) found = found.filter((k) => k.kid === h.kid);
    if (found.length === 0) throw new JwtError('ERR_JWKS_NO_MATCHING_KEY');
    if (found.length > 1) throw new JwtError('ERR_JWKS_MULTIPLE_MATCHING_KEYS');
    return found[0]!;
  }

  /** Decrypt with the CEK, wipe a recovered one, and hand back the plaintext as text. */
  function finish(
    header: JweHeader,
    issuer: string | undefined,
    cek: Uint8Array | CryptoKey,
    aad: Uint8Array,
    sealed: Sealed,
  ): OpenedJwe | Promise<OpenedJwe> {
    // A recovered CEK is this token's alone; a `dir` key is the caller's and stays.
    const wipe = (): void => {
      if (cek instanceof Uint8Array && header.alg !== 'dir') cek.fill(0);
    };
    let opened: Uint8Array | Promise<Uint8Array>;
    try {
      opened = decryptContent(header.enc, cek, aad, sealed);
    } catch (e) {
      wipe();
      throw e;
    }
    if (!(opened instanceof Promise)) {
      wipe();
      return asText(header, opened, issuer);
    }
    return opened.then(
      (plain) => {
        wipe();
        return asText(header, plain, issuer);
      },
      (e: unknown) => {
        wipe();
        throw e;
      },
    );
  }

  return {
    issuers: new Set(bound.flatMap((b) => (b.issuer === undefined ? [] : [b.issuer]))),
    open(token: string): OpenedJwe | Promise<OpenedJwe> {
      if (!isCompactJwe(token)) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'expected five segments' });
      if (token.length > maxLength) throw new JwtError('ERR_JWT_TOO_LARGE');
      const d1 = token.indexOf('.');
      const d2 = token.indexOf('.', d1 + 1);
      const d3 = token.indexOf('.', d2 + 1);
      const d4 = token.indexOf('.', d3 + 1);
      if (d1 <= 0) throw new JwtError('ERR_JWT_MALFORMED', { reason: 'empty JWE header' });
      const { header, aad, key } = cachedHeader(token.slice(0, d1));
      const encryptedKey = segment(token, d1 + 1, d2, 'encrypted key');
      const sealed = {
        iv: segment(token, d2 + 1, d3, 'iv'),
        ciphertext: segment(token, d3 + 1, d4, 'ciphertext'),
        tag: segment(token, d4 + 1, token.length, 'tag'),
      };
      // No promise layer where none is needed: `dir` keys come back as they are once imported.
      const cek = key.unwrap(header.alg, header.enc, header.header, encryptedKey);
      const issuer = issuerOf.get(key);
      return cek instanceof Promise
        ? cek.then((k) => finish(header, issuer, k, aad, sealed))
        : finish(header, issuer, cek, aad, sealed);
    },
  };
}

interface HeaderEntry {
  readonly header: JweHeader;
  readonly aad: Uint8Array;
  readonly key: JweKey;
}

function asText(header: JweHeader, plain: Uint8Array, issuer: string | undefined): OpenedJwe {
  const text = utf8(plain);
  if (text === undefined) throw new JwtError('ERR_JWT_PAYLOAD_INVALID', { reason: 'not UTF-8' });
  return { header, plaintext: text, issuer };
}

/** One entry of `keys`: a key, or `{ key, issuer }` binding it to an issuer. */
function boundKey(entry: unknown, i: number): { key: JweKey; issuer: string | undefined } {
  const isBinding =
    typeof entry === 'object' && entry !== null && !(entry instanceof Uint8Array) && !Object.hasOwn(entry, 'kty');
  if (!isBinding) return { key: new JweKey(entry as EncryptionKeyInput, 'decrypt'), issuer: undefined };
  checkOptionNames(entry, BOUND_KEY_NAMES, `decryption.keys[${i}]`);
  const { key, issuer } = entry as IssuerBoundKey;
  if (typeof issuer !== 'string' || issuer.length === 0)
    throw optionsError(`keys[${i}].issuer`, 'expected a non-empty issuer');
  return { key: new JweKey(key, 'decrypt'), issuer };
}

const BOUND_KEY_NAMES = { key: true, issuer: true } as const satisfies Record<keyof IssuerBoundKey, true>;
