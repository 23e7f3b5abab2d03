// The `cors` section as GUARD_CONFIG describes it: its part of the one config description
// (../../config-description.ts), which scripts/gen-config.mjs turns into the schema, types, key sets and docs.

import { HEADER, NAMES } from '../../config-description-parts.js';
import type { Setting } from '../../config-description-types.js';

/**
 * The `cors` settings, the section first.
 *
 * @example
 * const settings = [...CORS_SETTINGS];
 */
export const CORS_SETTINGS: readonly Setting[] = [
  {
    path: 'cors',
    type: { kind: 'section', def: 'cors', tsName: 'CorsInput', keys: 'CORS_KEYS' },
    doc: 'Answer CORS preflights and mark responses for these origins ([CORS](#cors)).',
  },
  { path: 'cors.allowOrigins', type: NAMES, required: true, doc: 'Origins allowed to call.' },
  {
    path: 'cors.allowMethods',
    type: { kind: 'oneOrMany', item: HEADER, emptyList: true },
    doc: 'Methods a preflight may ask for.',
  },
  {
    path: 'cors.allowHeaders',
    type: { kind: 'oneOrMany', item: HEADER, emptyList: true },
    doc: 'Request headers a preflight may ask for.',
  },
  {
    path: 'cors.exposeHeaders',
    type: { kind: 'oneOrMany', item: HEADER, emptyList: true },
    doc: 'Response headers the browser shows the caller.',
  },
  {
    path: 'cors.maxAge',
    type: { kind: 'integer', min: 0, max: 86_400 },
    default: 600,
    doc: 'Seconds a preflight answer may be cached.',
  },
  { path: 'cors.credentials', type: { kind: 'boolean' }, default: false, doc: 'Allow credentialed requests.' },
];
