// The resource stage (`resource`, RFC 9728): the protected resource metadata served at its
// well-known path without a token, and `resource_metadata` added to every challenge the
// guard sends. Both are computed once from the config, never from a request's Host.
// The path's other spellings are refused by the reserved-path stage (reserved-paths.ts).

import { addToEachChallenge } from '../../../resource/challenge-param.js';
import { metadataJson, metadataPath, metadataResponse, metadataUrl } from '../../../resource/metadata.js';
import type { ResourceSettings } from '../../../resource/metadata.js';
import { quote } from '../../../bearer/challenge.js';
import type { GuardConfig } from '../../config-core.js';
import type { DpopConfig } from '../dpop/dpop-config.js';

/** What the guard runs with when `resource` is set. */
export interface ResourceStage {
  /** The exact path the metadata is served at. */
  readonly path: string;
  /** The answer to a request for `path` (GET, HEAD, OPTIONS; 405 otherwise). */
  serve(method: string): Response;
  /** Adds `resource_metadata` to each challenge of `response`'s `WWW-Authenticate`, if it has one (in place). */
  challenge(response: Response): Response;
}

/**
 * The stage for `config.resource`: `authorization_servers` are the issuers' URL spellings, `dpop_*` when an issuer
 * sets `dpop` (required when every issuer requires it).
 *
 * @example
 * const stage = resourceStage({ issuers: config.issuers, dpop: dpopSection.of(config), resource });
 * if (url.pathname === stage.path) return stage.serve(request.method);
 */
export function resourceStage(
  config: Pick<GuardConfig, 'issuers'> & { dpop: DpopConfig | undefined; resource: ResourceSettings },
): ResourceStage {
  const { resource, dpop } = config;
  // An `iss` spelling that is not a URL (Google's bare host) names no authorization server.
  const servers = config.issuers.flatMap((is) => is.issuer.filter((name) => /^https?:\/\//i.test(name)));
  const required = config.issuers.every((is) => is.dpop === 'required');
  const dpopMembers = dpop === undefined ? undefined : { algorithms: dpop.algorithms, required };
  const json = metadataJson(resource, servers, dpopMembers);
  const param = `resource_metadata=${quote(metadataUrl(resource.id))}`;
  return {
    path: metadataPath(resource.id),
    serve: (method) => metadataResponse(json, method),
    challenge: (response) => {
      const value = response.headers.get('www-authenticate');
      if (value !== null) response.headers.set('www-authenticate', addToEachChallenge(value, param));
      return response;
    },
  };
}
