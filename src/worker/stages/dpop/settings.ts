// The `dpop` section as GUARD_CONFIG describes it: its part of the one config description
// (../../config-description.ts), which scripts/gen-config.mjs turns into the schema, types, key sets and docs.

import { SUPPORTED_ALGORITHMS } from '../../../algorithms.js';
import { NAME, storeOrIsolate } from '../../config-description-parts.js';
import type { Setting } from '../../config-description-types.js';

/**
 * The `dpop` settings, the section first.
 *
 * @example
 * const settings = [...DPOP_SETTINGS];
 */
export const DPOP_SETTINGS: readonly Setting[] = [
  {
    path: 'dpop',
    type: {
      kind: 'section',
      tsName: 'DpopInput',
      keys: 'DPOP_KEYS',
      doc: 'The `dpop` section: how DPoP proofs are checked.',
    },
    doc:
      'DPoP proofs (RFC 9449) for the issuers that set `dpop`; required when one does, refused when none does. ' +
      'Whatever the config, a token whose `cnf` names a key the request did not prove is refused. Browser ' +
      'clients behind `cors`: allow the `DPoP` header, expose `DPoP-Nonce` and `WWW-Authenticate`.',
  },
  {
    path: 'dpop.replay',
    type: storeOrIsolate('DpopReplayShard'),
    ts: "'isolate' | { durableObject: string }",
    required: true,
    doc:
      'Where proof `jti`s are remembered: `{ "durableObject": "DPOP_REPLAY" }` (class `DpopReplayShard`), or ' +
      '`"isolate"` (this isolate only: tests and one-isolate dev; check-config warns). A store that does not ' +
      'answer is a 503, never a pass.',
  },
  {
    path: 'dpop.nonceSecretBinding',
    type: NAME,
    binding: 'secret',
    doc:
      'Name of a secret (at least 32 characters) for stateless server nonces: a proof must then carry a recent ' +
      'one (`401 use_dpop_nonce` with `DPoP-Nonce` otherwise).',
  },
  {
    path: 'dpop.algorithms',
    type: {
      kind: 'oneOrMany',
      item: { kind: 'enum', values: SUPPORTED_ALGORITHMS.filter((a) => !a.startsWith('HS')) },
    },
    ts: 'OneOrMany<string>',
    default: ['ES256', 'EdDSA', 'Ed25519', 'RS256', 'PS256'],
    doc: 'Proof algorithms accepted, asymmetric only.',
  },
  {
    path: 'dpop.maxAgeSeconds',
    type: { kind: 'integer', min: 1, max: 300 },
    default: 60,
    doc: 'The oldest proof `iat` accepted, seconds.',
  },
];
