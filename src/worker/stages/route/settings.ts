// The `rules` section as GUARD_CONFIG describes it: its part of the one config description
// (../../config-description.ts), which scripts/gen-config.mjs turns into the schema, types, key sets and docs.

import { CLAIMS, HEADER, NAMES, PATH } from '../../config-description-parts.js';
import type { Setting } from '../../config-description-types.js';

/**
 * The `rules` settings, the section first.
 *
 * @example
 * const settings = [...RULES_SETTINGS];
 */
export const RULES_SETTINGS: readonly Setting[] = [
  {
    path: 'rules',
    type: {
      kind: 'list',
      item: {
        kind: 'section',
        def: 'rule',
        tsName: 'RuleInput',
        keys: 'RULE_KEYS',
        doc: 'A route rule: the first whose prefix and methods match decides.',
      },
    },
    doc: 'Route rules: the **first** whose prefix and methods match decides ([Rules](#rules)).',
  },
  {
    path: 'rules[].pathPrefix',
    type: PATH,
    required: true,
    doc:
      'A plain prefix in canonical form (no `*`); one ending in `/` also covers the path without it; letter ' +
      'case ignored by default.',
  },
  {
    path: 'rules[].methods',
    type: { kind: 'oneOrMany', item: HEADER },
    doc: 'Only requests with these methods (default: all).',
  },
  {
    path: 'rules[].auth',
    type: { kind: 'enum', values: ['required', 'optional', 'none'] },
    default: 'required',
    doc: '`optional`: no token is anonymous; `none`: no check.',
  },
  { path: 'rules[].issuers', type: NAMES, doc: 'Only tokens of these configured issuers.' },
  { path: 'rules[].audience', type: NAMES, doc: "The token's `aud` must hold one of these." },
  {
    path: 'rules[].scopes',
    type: { kind: 'oneOrMany', item: { kind: 'string', pattern: '^[^\\s"\\\\]+$' } },
    doc: 'All required; read from `scope` (space-separated) or `scp`.',
  },
  {
    path: 'rules[].claims',
    type: CLAIMS,
    doc: 'A value or a list of accepted values per claim; an array claim matches if it contains one.',
  },
  {
    path: 'rules[].acr',
    type: { kind: 'oneOrMany', item: { kind: 'string', pattern: '^[!#-\\[\\]-~]+$' } },
    doc:
      "RFC 9470 step-up: the token's `acr` must be one of these, else 401 `insufficient_user_authentication` " +
      'with `acr_values` ([Protect an MCP server](#protect-an-mcp-server)).',
  },
  {
    path: 'rules[].maxAge',
    type: { kind: 'integer', min: 0, max: 31_536_000 },
    doc:
      "RFC 9470 step-up: seconds since the token's `auth_time`, else 401 `insufficient_user_authentication` " +
      'with `max_age`.',
  },
];
