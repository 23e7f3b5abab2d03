// The `paths` section as GUARD_CONFIG describes it: its part of the one config description
// (../../config-description.ts), which scripts/gen-config.mjs turns into the schema, types, key sets and docs.

import type { Setting } from '../../config-description-types.js';

/**
 * The `paths` settings, the section first.
 *
 * @example
 * const settings = [...PATHS_SETTINGS];
 */
export const PATHS_SETTINGS: readonly Setting[] = [
  {
    path: 'paths',
    type: { kind: 'section', keys: 'PATHS_KEYS' },
    doc: 'How request paths are read, matched and forwarded ([Request paths](#request-paths)).',
  },
  {
    path: 'paths.escapedSlashes',
    type: { kind: 'enum', values: ['reject', 'decode'] },
    default: 'reject',
    doc: '`reject`: 400 for `%2F`/`%5C`; `decode`: read them as `/`.',
  },
  { path: 'paths.caseSensitive', type: { kind: 'boolean' }, default: false, doc: '`false`: rules ignore letter case.' },
  {
    path: 'paths.forward',
    type: { kind: 'enum', values: ['canonical', 'received'] },
    default: 'canonical',
    doc: 'The path the origin receives: the canonical one, or as the runtime received it.',
  },
];
