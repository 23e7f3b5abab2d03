// RFC 9728 Protected Resource Metadata (src/resource/): the well-known path of a resource
// identifier (§3.1), the absolute URL challenges point to (§5.1), the document (§2), and the
// `resource` section's checks. The URL always comes from the configured id, never a request.
import { describe, expect, it } from 'vitest';
import { parseResource, parseStepUp, resourceId } from '../../src/resource/config.js';
import { METADATA_WELL_KNOWN, metadataJson, metadataPath } from '../../src/resource/metadata.js';
import { metadataResponse, metadataUrl } from '../../src/resource/metadata.js';
import { ConfigError } from '../../src/worker/config-error.js';

const refused = (f: () => unknown, setting: string): void => {
  let caught: unknown;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  expect((caught as ConfigError).setting).toBe(setting);
};

describe('metadata path and URL (RFC 9728 §3.1)', () => {
  it('metadata_path_inserts_well_known_between_host_and_path', () => {
    expect(metadataPath('https://mcp.example.com/mcp')).toBe('/.well-known/oauth-protected-resource/mcp');
    expect(metadataPath('https://api.example.com/a/b/')).toBe('/.well-known/oauth-protected-resource/a/b/');
    const id = 'https://mcp.example.com:8443/tools/mcp';
    expect(metadataUrl(id)).toBe('https://mcp.example.com:8443/.well-known/oauth-protected-resource/tools/mcp');
  });

  it('metadata_path_root_has_no_terminating_slash', () => {
    for (const id of ['https://api.example.com', 'https://api.example.com/']) {
      expect(metadataPath(id)).toBe(METADATA_WELL_KNOWN);
      expect(metadataUrl(id)).toBe('https://api.example.com/.well-known/oauth-protected-resource');
    }
  });

  it('metadata_url_is_built_from_the_id_origin_only: the same id gives the same URL whoever asks', () => {
    // No request goes in: a hostile Host header has no way to reach the URL.
    expect(metadataUrl.length).toBe(1);
    const id = 'http://127.0.0.1:8787/mcp';
    expect(metadataUrl(id)).toBe('http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp');
  });
});

describe('metadata document (RFC 9728 §2)', () => {
  it('metadata_document_members_from_config', () => {
    const json = metadataJson(
      {
        id: 'https://mcp.example.com/mcp',
        scopes: ['tools:read', 'tools:call'],
        documentation: 'https://docs.example.com/mcp',
      },
      ['https://as.example.com', 'https://as2.example.com', 'https://as.example.com'],
      { algorithms: ['ES256', 'EdDSA'], required: false },
    );
    expect(JSON.parse(json)).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorization_servers: ['https://as.example.com', 'https://as2.example.com'],
      scopes_supported: ['tools:read', 'tools:call'],
      bearer_methods_supported: ['header'],
      resource_documentation: 'https://docs.example.com/mcp',
      dpop_signing_alg_values_supported: ['ES256', 'EdDSA'],
      dpop_bound_access_tokens_required: false,
    });
  });

  it('metadata_document_leaves_out_what_is_not_configured', () => {
    expect(JSON.parse(metadataJson({ id: 'https://api.example.com' }, ['https://as.example.com']))).toEqual({
      resource: 'https://api.example.com',
      authorization_servers: ['https://as.example.com'],
      bearer_methods_supported: ['header'],
    });
    const noScopes = metadataJson({ id: 'https://a.example', scopes: [] }, ['https://as.example']);
    expect(JSON.parse(noScopes)).not.toHaveProperty('scopes_supported');
  });

  it('metadata_response_per_method', async () => {
    const json = metadataJson({ id: 'https://api.example.com' }, ['https://as.example.com']);
    const get = metadataResponse(json, 'GET');
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('application/json');
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(await get.text()).toBe(json);
    const head = metadataResponse(json, 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(metadataResponse(json, 'OPTIONS').status).toBe(204);
    const post = metadataResponse(json, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('the resource section', () => {
  it('resource_id_accepts_https_and_loopback_http', () => {
    expect(resourceId('https://mcp.example.com/mcp', 'resource.id')).toBe('https://mcp.example.com/mcp');
    expect(resourceId('https://api.example.com', 'resource.id')).toBe('https://api.example.com');
    expect(resourceId('https://api.example.com/', 'resource.id')).toBe('https://api.example.com/');
    expect(resourceId('http://127.0.0.1:8787/mcp', 'resource.id')).toBe('http://127.0.0.1:8787/mcp');
    expect(resourceId('http://localhost/mcp', 'resource.id')).toBe('http://localhost/mcp');
  });

  it('resource_id_refuses_what_rfc_8707_forbids_naming_the_setting', () => {
    const bad = [
      'http://mcp.example.com/mcp', // http off loopback
      'https://mcp.example.com/mcp#frag',
      'https://mcp.example.com/mcp#',
      'https://mcp.example.com/mcp?tenant=a',
      'https://mcp.example.com/mcp?',
      'https://user:pass@mcp.example.com/mcp',
      'HTTPS://MCP.example.com/mcp', // not the parser's spelling: a second audience string
      'https://mcp.example.com:443/mcp',
      'https://mcp.example.com/a/../mcp',
      'https://mcp.example.com/a b',
      'mcp.example.com/mcp',
      'urn:example:resource',
      '',
      42,
    ];
    for (const id of bad) refused(() => parseResource({ id }), 'resource.id');
    refused(() => parseResource({}), 'resource.id');
  });

  it('resource_section_refuses_unknown_settings_and_bad_values', () => {
    refused(() => parseResource('https://a.example'), 'resource');
    refused(() => parseResource({ id: 'https://a.example', scope: ['x'] }), 'resource.scope');
    refused(() => parseResource({ id: 'https://a.example', scopes: ['ok', 'two words'] }), 'resource.scopes[1]');
    refused(() => parseResource({ id: 'https://a.example', scopes: ['say"hi'] }), 'resource.scopes[0]');
    const plainDocs = { id: 'https://a.example', documentation: 'http://docs.example' };
    refused(() => parseResource(plainDocs), 'resource.documentation');
    expect(parseResource(undefined)).toBeUndefined();
    const one = parseResource({ id: 'https://a.example', scopes: 'read' });
    expect(one).toEqual({ id: 'https://a.example', scopes: ['read'], documentation: undefined });
  });

  it('step_up_settings_checked', () => {
    expect(parseStepUp({ pathPrefix: '/' }, 'rules[0]')).toBeUndefined();
    expect(parseStepUp({ acr: ['mfa', 'phr'], maxAge: 300 }, 'rules[0]')).toEqual({ acr: ['mfa', 'phr'], maxAge: 300 });
    expect(parseStepUp({ maxAge: 0 }, 'rules[1]')).toEqual({ acr: undefined, maxAge: 0 });
    refused(() => parseStepUp({ maxAge: -1 }, 'rules[2]'), 'rules[2].maxAge');
    refused(() => parseStepUp({ maxAge: 1.5 }, 'rules[2]'), 'rules[2].maxAge');
    refused(() => parseStepUp({ maxAge: '300' }, 'rules[2]'), 'rules[2].maxAge');
    refused(() => parseStepUp({ acr: [] }, 'rules[3]'), 'rules[3].acr');
    refused(() => parseStepUp({ acr: ['a b'] }, 'rules[3]'), 'rules[3].acr[0]');
  });
});
