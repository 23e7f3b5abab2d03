// The `admin` section as GUARD_CONFIG describes it: its part of the one config description
// (../../config-description.ts), which scripts/gen-config.mjs turns into the schema, types, key sets and docs.

import { NAME, PATH } from '../../config-description-parts.js';
import type { Setting } from '../../config-description-types.js';

/**
 * The `admin` settings, the section first.
 *
 * @example
 * const settings = [...ADMIN_SETTINGS];
 */
export const ADMIN_SETTINGS: readonly Setting[] = [
  {
    path: 'admin',
    type: { kind: 'section', keys: 'ADMIN_KEYS' },
    doc: 'Serves the counters as JSON to requests with `X-Guard-Admin: <secret>`.',
  },
  { path: 'admin.path', type: PATH, required: true, doc: 'Where the counters are served (e.g. `/__guard/counters`).' },
  {
    path: 'admin.secretBinding',
    type: NAME,
    required: true,
    binding: 'secret',
    doc: 'Name of the secret (at least 16 characters) a request must send in `X-Guard-Admin`.',
  },
];
