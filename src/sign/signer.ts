// createSigner: tokens in the other direction, as strictly as the verifier reads them.
// HS* sign in the Wasm core (the key's HMAC midstates sit in a slot; the pads were
// wiped at import); EdDSA, RS*, PS* and ES* sign through the signing backend
// (node:crypto, synchronous, under the `node` condition; WebCrypto elsewhere). The
// Wasm Ed25519 code only verifies: it is not constant time and never sees a private key.

import { signBackend } from '#crypto-backend';
import { base64UrlOfBytes, base64UrlOfText } from '#platform';
import { algSpec, type Algorithm } from '../algorithms.js';
import { JwtError } from '../errors.js';
import { checkOptionNames, type OptionNames } from '../option-names.js';
import { optionsError } from '../options-error.js';
import { getCore } from '../wasm/instance.js';
import { hmacSignJws } from '../wasm/core-sign.js';
import { claimsJson, claimsText, isPlainObject, type SignOptions } from './claims.js';
import { headerSegment } from './header.js';
import type { WasmKey } from '../wasm/key-slot.js';
import { signingKey, type SignerKeyInput } from './keys.js';

export type { SignOptions } from './claims.js';
export type { SignerKeyInput, PrivateJWK } from './keys.js';

/**
 * Options of createSigner.
 *
 * @example
 * ```ts
 * const options: SignerOptions = { alg: 'EdDSA', key: privateJwk, header: { kid: 'k1' } };
 * ```
 */
export interface SignerOptions {
  /** The JWS algorithm; any of SUPPORTED_ALGORITHMS. */
  alg: Algorithm;
  key: SignerKeyInput;
  /** Header members for every token of this signer (e.g. `kid`); per-call `header` members override them. */
  header?: Record<string, unknown>;
}

/** The names createSigner accepts: checkOptionNames refuses any other (a misspelt option would turn a check off). */
export const SIGNER_OPTION_NAMES = { alg: true, key: true, header: true } as const satisfies OptionNames<SignerOptions>;

/**
 * A signer bound to one algorithm and key (see createSigner).
 *
 * @example
 * ```ts
 * const token = signer.signSync({ sub: 'u1' }, { expiresIn: 300, audience: 'api', jwtId: crypto.randomUUID() });
 * ```
 */
export interface Signer {
  readonly alg: Algorithm;
  /** Sign in every runtime and for every algorithm. */
  sign(payload: Record<string, unknown>, options?: SignOptions): Promise<string>;
  /** Sign with no promise: HS* everywhere, every algorithm under the `node` condition; else ERR_ASYNC_REQUIRED. */
  signSync(payload: Record<string, unknown>, options?: SignOptions): string;
}

/** The verifier's largest token (the Wasm core's input region), less room for the
 * longest signature (RSA-4096 is 683 characters, larger moduli more): the longest signing input. */
const MAX_INPUT = 65_536 - 1024;

/**
 * Create a signer bound to one algorithm and key. Key problems throw here
 * (ERR_KEY_INVALID, ERR_KEY_TOO_SHORT, ERR_KEY_ALG_MISMATCH), except a WebCrypto
 * import failure, which rejects the first `sign`.
 *
 * @example
 * ```ts
 * import { createSigner } from 'edgejwt';
 *
 * const signer = createSigner({ alg: 'HS256', key: secretBytes });
 * const token = signer.signSync({ sub: 'user-1', scope: 'read' }, { expiresIn: 300, issuer: 'https://auth.example' });
 *
 * const es = createSigner({ alg: 'ES256', key: privateJwk, header: { kid: 'k1' } });
 * const jwt = await es.sign({ sub: 'user-1' }, { expiresIn: 60, audience: 'api' });
 * ```
 */
export function createSigner(options: SignerOptions): Signer {
  if (typeof options !== 'object' || options === null) throw optionsError('options');
  checkOptionNames(options, SIGNER_OPTION_NAMES);
  const spec = typeof options.alg === 'string' ? algSpec(options.alg) : undefined;
  if (spec === undefined) throw optionsError('alg', 'unsupported algorithm');
  if (options.key === undefined || options.key === null) throw optionsError('key');
  const base = options.header;
  if (base !== undefined && !isPlainObject(base)) throw optionsError('header', 'expected a plain object');
  const baseSegment = headerSegment(spec.alg, base);
  const key = signingKey(spec, options.key);
  const alg = spec.alg as Algorithm;

  function header(o: SignOptions | undefined): string {
    return o?.header === undefined
      ? baseSegment
      : headerSegment(alg, base === undefined ? o.header : { ...base, ...o.header });
  }

  function signingInput(payload: Record<string, unknown>, o: SignOptions | undefined): string {
    const h = header(o);
    const input = h + '.' + base64UrlOfText(claimsJson(payload, o, Math.floor(Date.now() / 1000)));
    if (input.length > MAX_INPUT)
      throw new JwtError('ERR_JWT_TOO_LARGE', { reason: 'the token would exceed 65536 characters' });
    return input;
  }

  /**
   * HS*: the header and claims text go to the core, which encodes, MACs and joins them (the same checks, in the same
   * order, as signingInput).
   */
  function signHmac(wasm: WasmKey, payload: Record<string, unknown>, o: SignOptions | undefined): string {
    const h = header(o);
    const claims = claimsText(payload, o, Math.floor(Date.now() / 1000));
    const core = getCore();
    // slot() first: nothing may run between it and the signing call.
    return hmacSignJws(core, wasm.slot(), h, claims.json, claims.extra, MAX_INPUT);
  }

  return {
    alg,
    signSync(payload, o) {
      if (key.wasm !== undefined) return signHmac(key.wasm, payload, o);
      const input = signingInput(payload, o);
      const k = key.key;
      if (k instanceof Promise || signBackend.name !== 'node')
        throw new JwtError('ERR_ASYNC_REQUIRED', { reason: 'call sign() instead of signSync()' });
      return input + '.' + base64UrlOfBytes(backendSign(() => signBackend.sign(spec, k, input) as Uint8Array));
    },
    async sign(payload, o) {
      if (key.wasm !== undefined) return signHmac(key.wasm, payload, o);
      const input = signingInput(payload, o);
      const k = await key.key;
      let signature: Uint8Array;
      try {
        signature = await signBackend.sign(spec, k, input);
      } catch {
        throw new JwtError('ERR_KEY_INVALID', { reason: 'the runtime refused to sign with this key' });
      }
      return input + '.' + base64UrlOfBytes(signature);
    },
  };
}

/** A synchronous backend signature; a refusal (a key the runtime cannot use) is a typed key error. */
function backendSign(run: () => Uint8Array): Uint8Array {
  try {
    return run();
  } catch {
    throw new JwtError('ERR_KEY_INVALID', { reason: 'the runtime refused to sign with this key' });
  }
}
