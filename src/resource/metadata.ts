// RFC 9728 Protected Resource Metadata: the document a protected resource publishes
// about itself, where it is published (§3.1) and the absolute URL a challenge points
// to (§5.1). Everything here is computed once from configuration: the URL is built
// from the resource identifier's own origin, never from a request's Host header.

/** The checked `resource` section (see parseResource in ./config.ts). */
export interface ResourceSettings {
  /** The resource identifier (RFC 8707 §2): absolute https URL, no fragment, no query, no userinfo. */
  readonly id: string;
  /** Scopes this resource understands (`scopes_supported`). */
  readonly scopes?: readonly string[] | undefined;
  /** A human-readable page about the resource (`resource_documentation`). */
  readonly documentation?: string | undefined;
}

/** What DPoP (RFC 9449) the guard accepts, for §2's `dpop_*` members; undefined when no issuer uses DPoP. */
export interface MetadataDpop {
  /** The proof algorithms accepted. */
  readonly algorithms: readonly string[];
  /** True when every issuer requires DPoP-bound tokens. */
  readonly required: boolean;
}

/** RFC 9728 §3's well-known URI suffix. */
export const METADATA_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The path the metadata for `id` is served at (RFC 9728 §3.1): the well-known suffix inserted between the
 * host and the path of `id`; a root path (`/` or none) adds nothing, so no terminating slash follows the suffix.
 *
 * @example
 * metadataPath('https://mcp.example.com/mcp'); // '/.well-known/oauth-protected-resource/mcp'
 * metadataPath('https://api.example.com/'); // '/.well-known/oauth-protected-resource'
 */
export function metadataPath(id: string): string {
  const path = new URL(id).pathname;
  return path === '/' ? METADATA_WELL_KNOWN : METADATA_WELL_KNOWN + path;
}

/**
 * The absolute URL of the metadata document for `id`: `id`'s origin and metadataPath. This is the value of
 * `resource_metadata` in every challenge (RFC 9728 §5.1).
 *
 * @example
 * metadataUrl('https://mcp.example.com/mcp'); // 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp'
 */
export function metadataUrl(id: string): string {
  return new URL(id).origin + metadataPath(id);
}

/**
 * The metadata document (RFC 9728 §2) as JSON text, members in a fixed order: `resource` (the id exactly as
 * configured, §3.3), `authorization_servers` (each issuer once, in order), `scopes_supported` when scopes are
 * set, `bearer_methods_supported: ["header"]`, `resource_documentation`, and the `dpop_*` members when DPoP is on.
 *
 * @example
 * metadataJson({ id: 'https://mcp.example.com/mcp' }, ['https://as.example.com']);
 * // '{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://as.example.com"],...}'
 */
export function metadataJson(resource: ResourceSettings, issuers: readonly string[], dpop?: MetadataDpop): string {
  const doc: Record<string, unknown> = { resource: resource.id, authorization_servers: [...new Set(issuers)] };
  if (resource.scopes !== undefined && resource.scopes.length > 0) doc.scopes_supported = [...resource.scopes];
  // The guard reads the token from a header; cookies and custom headers have no registered name here.
  doc.bearer_methods_supported = ['header'];
  if (resource.documentation !== undefined) doc.resource_documentation = resource.documentation;
  if (dpop !== undefined) {
    doc.dpop_signing_alg_values_supported = [...dpop.algorithms];
    doc.dpop_bound_access_tokens_required = dpop.required;
  }
  return JSON.stringify(doc);
}

/** The headers of the metadata answer: public, cacheable for five minutes, readable from any origin. */
const METADATA_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  // Short enough that a config change (a new issuer) reaches clients soon, long enough to spare the isolate.
  'cache-control': 'public, max-age=300',
  // The document is public and carries no credentials: browser-based MCP clients must be able to read it.
  'access-control-allow-origin': '*',
});

/** A CORS preflight's answer: MCP clients in a browser send `MCP-Protocol-Version`, which needs one. */
const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD',
  'access-control-allow-headers': '*',
  'access-control-max-age': '86400',
});

/**
 * The answer to a request for the metadata path: 200 with `json` for GET, 200 without a body for HEAD,
 * 204 for a CORS preflight (OPTIONS), 405 (Allow: GET, HEAD, OPTIONS) for any other method. No token is
 * asked for (RFC 9728 §3.1).
 *
 * @example
 * const json = metadataJson(settings, issuers);
 * metadataResponse(json, request.method);
 */
export function metadataResponse(json: string, method: string): Response {
  if (method === 'GET') return new Response(json, { status: 200, headers: METADATA_HEADERS });
  if (method === 'HEAD') return new Response(null, { status: 200, headers: METADATA_HEADERS });
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: PREFLIGHT_HEADERS });
  return new Response(null, { status: 405, headers: { allow: 'GET, HEAD, OPTIONS' } });
}
