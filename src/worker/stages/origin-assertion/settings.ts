// The `originAssertion` section as GUARD_CONFIG describes it: its part of the one config description
// (../../config-description.ts), which scripts/gen-config.mjs turns into the schema, types, key sets and docs.

import { SUPPORTED_ALGORITHMS } from '../../../algorithms.js';
import { NAME, PATH } from '../../config-description-parts.js';
import type { Setting } from '../../config-description-types.js';

/**
 * The `originAssertion` settings, the section first.
 *
 * @example
 * const settings = [...ORIGIN_ASSERTION_SETTINGS];
 */
export const ORIGIN_ASSERTION_SETTINGS: readonly Setting[] = [
  {
    path: 'originAssertion',
    type: {
      kind: 'section',
      tsName: 'OriginAssertionInput',
      keys: 'ORIGIN_ASSERTION_KEYS',
      doc: 'The `originAssertion` setting: the guard signs the verified identity for the origin.',
    },
    doc:
      'A short-lived JWT signed by the guard on every forwarded authenticated request; its public key set is ' +
      'served at `jwksPath`; client-sent copies of the header are always removed.',
  },
  {
    path: 'originAssertion.keyBinding',
    type: NAME,
    required: true,
    binding: 'secret',
    doc: 'Name of the secret holding the private JWK (JSON).',
  },
  {
    path: 'originAssertion.header',
    type: { kind: 'string' },
    default: 'X-Edgejwt-Assertion',
    doc: 'The request header that carries it.',
  },
  {
    path: 'originAssertion.alg',
    type: { kind: 'enum', values: SUPPORTED_ALGORITHMS.filter((a) => !a.startsWith('HS')) },
    ts: 'string',
    default: 'EdDSA',
    doc: 'An asymmetric algorithm.',
  },
  {
    path: 'originAssertion.ttl',
    type: { kind: 'integer', min: 1, max: 3600 },
    default: 60,
    doc: 'Seconds it is valid.',
  },
  {
    path: 'originAssertion.claims',
    type: { kind: 'list', item: { kind: 'string', notIn: ['iss', 'aud', 'exp', 'iat', 'nbf', 'jti'] } },
    ts: 'readonly string[]',
    default: ['sub'],
    doc: 'Claims copied from the verified token.',
  },
  {
    path: 'originAssertion.jwksPath',
    type: PATH,
    default: '/.well-known/edgejwt/jwks.json',
    doc: 'Where the public key set is served.',
  },
  { path: 'originAssertion.issuer', type: NAME, doc: "Its `iss` (default: the guard's origin)." },
  {
    path: 'originAssertion.audience',
    type: NAME,
    doc: "Its `aud` (default: the configured origin's, else the guard's own).",
  },
];
