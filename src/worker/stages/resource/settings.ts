// The `resource` section as GUARD_CONFIG describes it: its part of the one config description
// (../../config-description.ts), which scripts/gen-config.mjs turns into the schema, types, key sets and docs.

import type { Setting } from '../../config-description-types.js';

/**
 * The `resource` settings, the section first.
 *
 * @example
 * const settings = [...RESOURCE_SETTINGS];
 */
export const RESOURCE_SETTINGS: readonly Setting[] = [
  {
    path: 'resource',
    type: {
      kind: 'section',
      tsName: 'ResourceInput',
      keys: 'RESOURCE_KEYS',
      doc: 'The `resource` section: this API as an OAuth protected resource (RFC 9728, RFC 8707).',
    },
    doc:
      'This API as an OAuth protected resource: its metadata served without a token, `resource_metadata` on ' +
      'every challenge, and its `id` the default audience ([Protect an MCP server](#protect-an-mcp-server)).',
  },
  {
    path: 'resource.id',
    type: { kind: 'string', format: 'uri' },
    required: true,
    doc:
      'The resource identifier (RFC 8707): https (http only on loopback), no query or fragment, written as the ' +
      'URL parser writes it; the metadata is at `/.well-known/oauth-protected-resource` + its path.',
  },
  {
    path: 'resource.scopes',
    type: { kind: 'oneOrMany', item: { kind: 'string', pattern: '^[!#-\\[\\]-~]+$' } },
    doc: 'The scopes this resource understands (`scopes_supported`).',
  },
  {
    path: 'resource.documentation',
    type: { kind: 'string', format: 'uri' },
    doc: 'A page about this API for developers (`resource_documentation`).',
  },
];
