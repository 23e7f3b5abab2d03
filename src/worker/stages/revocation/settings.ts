// The `revocation` section as GUARD_CONFIG describes it: its part of the one config description
// (../../config-description.ts), which scripts/gen-config.mjs turns into the schema, types, key sets and docs.

import { NAME, PATH, storeOrIsolate } from '../../config-description-parts.js';
import type { Setting } from '../../config-description-types.js';

/**
 * The `revocation` settings, the section first.
 *
 * @example
 * const settings = [...REVOCATION_SETTINGS];
 */
export const REVOCATION_SETTINGS: readonly Setting[] = [
  {
    path: 'revocation',
    type: {
      kind: 'section',
      tsName: 'RevocationInput',
      keys: 'REVOCATION_KEYS',
      doc: "The `revocation` section: the admin endpoint, the list, how fresh each isolate's copy is.",
    },
    doc:
      'Token revocation ([Revocation](#revocation)): every verified token is checked against the list; 503 ' +
      'when it cannot be known to be current (fail closed).',
  },
  {
    path: 'revocation.path',
    type: PATH,
    required: true,
    doc:
      'The admin endpoint (`X-Guard-Admin`): POST `{"jti","exp"}` or `{"iss","sub","issuedBefore","exp"}`, GET ' +
      'lists what is in force; answered before any token check.',
  },
  {
    path: 'revocation.secretBinding',
    type: NAME,
    required: true,
    binding: 'secret',
    doc: 'Name of the secret (at least 16 characters) a request must send in `X-Guard-Admin`.',
  },
  {
    path: 'revocation.store',
    type: storeOrIsolate('RevocationList'),
    ts: "'isolate' | { durableObject: string }",
    required: true,
    doc:
      'The list: `{ "durableObject": "REVOCATIONS" }` (class `RevocationList`), or `"isolate"` (this isolate ' +
      'only: tests and one-isolate dev; check-config warns).',
  },
  {
    path: 'revocation.refreshMs',
    type: { kind: 'integer', min: 100, max: 60_000 },
    default: 1000,
    doc:
      "An isolate's copy older than this is refreshed before it answers: the bound on how long an isolate " +
      'takes to learn of a revocation.',
  },
  {
    path: 'revocation.timeoutMs',
    type: { kind: 'integer', min: 10, max: 5000 },
    default: 250,
    doc: 'How long one refresh may wait for the list.',
  },
  {
    path: 'revocation.maxStaleMs',
    type: { kind: 'integer', min: 1000, max: 600_000 },
    default: 10_000,
    doc: 'With no good refresh for this long every verified request gets 503; at least `refreshMs`.',
  },
];
