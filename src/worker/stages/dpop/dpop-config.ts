// The DPoP settings (RFC 9449): an issuer's `dpop: "required" | "allowed"` and the
// top-level `dpop` section the stage (dpop-stage.ts) runs with. Each only makes
// sense with the other, so either one alone is a ConfigError naming it.

import { SUPPORTED_ALGORITHMS } from '../../../algorithms.js';
import type { DpopAlgorithm } from '../../../dpop/options.js';
import { ConfigError } from '../../config-error.js';
import { DPOP_KEYS } from '../../config-keys.js';
import { isObject, knownKeys, num, str, strList } from '../../config-values.js';

/**
 * How an issuer's tokens meet DPoP: `required` (a bound token and a proof, always) or `allowed` (bearer too, when
 * unbound).
 */
export type DpopMode = 'required' | 'allowed';

/** Where proof `jti`s are remembered: sharded Durable Objects, or this isolate only (tests, single-isolate dev). */
export type DpopReplayConfig = { kind: 'durableObject'; binding: string } | { kind: 'isolate' };

export interface DpopConfig {
  replay: DpopReplayConfig;
  /** The secret binding the stateless nonces are keyed with; undefined: no nonces. */
  nonceSecretBinding: string | undefined;
  algorithms: DpopAlgorithm[];
  /** The oldest proof `iat` accepted, seconds before now. */
  maxAgeSeconds: number;
}

/**
 * RFC 9449 names ES256 as the one every server should accept; EdDSA, RS256 and PS256 are the
 * common others, and Ed25519 is how some clients (oauth4webapi) label an Ed25519 proof (RFC 9864).
 */
export const DPOP_DEFAULT_ALGORITHMS: readonly DpopAlgorithm[] = ['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256'];

/**
 * An issuer entry's `dpop` setting.
 *
 * @example
 * parseIssuerDpop('required', 'issuers[0]'); // 'required'
 */
export function parseIssuerDpop(v: unknown, at: string): DpopMode | undefined {
  if (v === undefined) return undefined;
  if (v !== 'required' && v !== 'allowed') throw new ConfigError(`${at}.dpop`, 'expected "required" or "allowed"');
  return v;
}

/**
 * The top-level `dpop` section, checked against the issuers that use it.
 *
 * @example
 * parseDpop({ replay: { durableObject: 'DPOP_REPLAY' } }, [{ dpop: 'required' }]);
 * // { replay: { kind: 'durableObject', binding: 'DPOP_REPLAY' }, nonceSecretBinding: undefined,
 * //   algorithms: ['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256'], maxAgeSeconds: 60 }
 */
export function parseDpop(v: unknown, issuers: readonly { dpop?: DpopMode | undefined }[]): DpopConfig | undefined {
  const user = issuers.findIndex((is) => is.dpop !== undefined);
  if (v === undefined) {
    if (user >= 0)
      throw new ConfigError(
        'dpop',
        `issuers[${user}].dpop needs the top-level dpop section (at least its replay store)`,
      );
    return undefined;
  }
  if (!isObject(v)) throw new ConfigError('dpop', 'expected an object');
  knownKeys(v, 'dpop', DPOP_KEYS);
  if (user < 0) throw new ConfigError('dpop', 'no issuer sets dpop: remove the section or set issuers[i].dpop');
  const algorithms =
    v.algorithms === undefined ? [...DPOP_DEFAULT_ALGORITHMS] : strList(v.algorithms, 'dpop.algorithms');
  for (const [i, a] of algorithms.entries()) {
    // A proof is signed by the client's own key: a MAC would need a secret the server shares (RFC 9449 §4.2).
    if (a.startsWith('HS') || a === 'none')
      throw new ConfigError(`dpop.algorithms[${i}]`, 'asymmetric algorithms only (no HS*, no none)');
    if (!SUPPORTED_ALGORITHMS.includes(a)) throw new ConfigError(`dpop.algorithms[${i}]`, 'unsupported algorithm');
  }
  return {
    replay: parseReplay(v.replay),
    nonceSecretBinding:
      v.nonceSecretBinding === undefined ? undefined : str(v.nonceSecretBinding, 'dpop.nonceSecretBinding'),
    algorithms: [...new Set(algorithms)] as DpopAlgorithm[],
    maxAgeSeconds: num(v.maxAgeSeconds, 'dpop.maxAgeSeconds', 60, 1, 300),
  };
}

function parseReplay(v: unknown): DpopReplayConfig {
  if (v === 'isolate') return { kind: 'isolate' };
  const expected = 'expected { "durableObject": "<binding>" } or "isolate"';
  if (!isObject(v)) throw new ConfigError('dpop.replay', expected);
  knownKeys(v, 'dpop.replay', new Set(['durableObject']));
  if (v.durableObject === undefined) throw new ConfigError('dpop.replay', expected);
  return { kind: 'durableObject', binding: str(v.durableObject, 'dpop.replay.durableObject') };
}
