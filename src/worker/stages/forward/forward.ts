// The forwarding stage: the verified claims as headers (refused when one cannot
// travel in a header), every spelling of the guard's own headers and the client's
// copy of the assertion stripped, the token dropped unless forwardToken, the payload
// and the origin assertion added, then the request sent to the configured origin
// only (a URL, a service binding, the echo) — the request never picks where.

import { ownClaim } from '../../../claims.js';
import type { GuardConfig } from '../../config-core.js';
import { dpopSection } from '../dpop/section.js';
import type { TokenReader } from '../credentials/authorization-token.js';
import type { OriginAssertion } from '../origin-assertion/origin-assertion.js';
import type { ServiceOrigin } from './service-origin.js';
import { claimHeaderValue } from './claim-header.js';
import type { AuthOutcome, RequestContext } from '../../context.js';
import { echo } from './echo.js';
import { headerNames } from '../../header-names.js';
import { dropHopByHop } from './hop-by-hop.js';
import { ECHO_ORIGIN } from './forwarding-config.js';
import { withTiming, type Observer } from '../observe/observe.js';
import { identityHeaders, stripIdentity, type IdentityHeaders } from '../../request.js';
import * as answer from '../../responses.js';

/** The request for the origin (its headers still to be edited), or the echo origin's target and headers. */
interface Outgoing {
  request: Request | undefined;
  headers: Headers;
  echo: URL | undefined;
}

/**
 * What the forward reads: the config, the network, and the parts its settings need.
 *
 * @example
 * const p: ForwardParts = { config, fetch, tokens, service, payloadHeader: undefined, assertion: undefined };
 */
export interface ForwardParts {
  config: GuardConfig;
  fetch: typeof fetch;
  /** Where the token is dropped (forwardToken: false). */
  tokens: TokenReader;
  /** The service binding authorised requests go to (`origin: { service }`). */
  service: ServiceOrigin | undefined;
  /** The `forwardPayload` header's value, when it is configured. */
  payloadHeader: ((payload: unknown) => string) | undefined;
  /** The origin assertion signer, when `originAssertion` is configured. */
  assertion: OriginAssertion | undefined;
}

/**
 * Forwards authorised requests for one guard.
 *
 * @example
 * return forwarder.forward(cx, outcome, path.path);
 */
export class Forwarder {
  readonly #parts: ForwardParts;
  readonly #observe: Observer;
  /** The headers the guard sets itself, stripped from every request in any spelling. */
  readonly #identity: IdentityHeaders;
  /** The configured origin URL up to its path (scheme, host, port), or undefined (echo, service, same URL). */
  readonly #originPrefix: string | undefined;

  constructor(parts: ForwardParts, observe: Observer) {
    this.#parts = parts;
    this.#observe = observe;
    this.#identity = identityHeaders(parts.config);
    const origin = parts.config.origin;
    this.#originPrefix = typeof origin === 'string' && origin !== ECHO_ORIGIN ? originPrefix(origin) : undefined;
  }

  /** Forward a request `outcome` let through, to `forwardPath` at the configured origin. */
  async forward(cx: RequestContext, outcome: AuthOutcome & { ok: true }, forwardPath: string): Promise<Response> {
    const { config, assertion } = this.#parts;
    const observe = this.#observe;
    let claims: [header: string, value: string][] | undefined;
    if (!outcome.anonymous) {
      for (const [claim, header] of config.forwardClaims) {
        const value = claimHeaderValue(ownClaim(outcome.payload, claim));
        if (value === null) {
          // A claim that cannot travel in a header unambiguously (claim-header.ts): refuse, never trim or truncate.
          observe.count('rejected:claim_not_forwardable');
          observe.reject(cx, { code: 'claim_not_forwardable', status: 401, claim, iss: outcome.issuer });
          const res = observe.challenged(answer.invalidToken(config.realm, answer.publicDescription(undefined)));
          return withTiming(res, outcome.timing);
        }
        if (value !== undefined) (claims ??= []).push([header, value]);
      }
    }
    // The request for the origin, built with the client's headers in one copy; they are edited in place below.
    const out = this.#outgoing(cx, forwardPath);
    if (out === undefined) {
      // The runtime accepted the request but will not send it on (a GET or HEAD with a body, ...).
      observe.count(outcome.anonymous ? 'public' : 'accepted');
      observe.point(outcome.anonymous ? 'anonymous' : 'accepted', outcome.issuer);
      observe.count('request_refused');
      return answer.badRequest('The request cannot be forwarded');
    }
    const headers = out.headers;
    // The client's header names for the two scans below (deleting a name twice is harmless): the route
    // stage's walk of request.headers, whose names the copy holds (the copy only ever drops `host`).
    const names = cx.headerNames ?? [...headerNames(headers)];
    dropHopByHop(headers, names); // RFC 9110 §7.6.1, before the guard's own headers (hop-by-hop.ts)
    // Every spelling of the guard's own headers (forwardClaims, forwardPayload, the admin secret), `X_Auth_Sub` too.
    stripIdentity(headers, this.#identity, names);
    // A client's own copy of the assertion header, in any spelling.
    assertion?.dropClientCopies(headers);
    if (!config.forwardToken) {
      this.#parts.tokens.dropToken(headers, config.tokenSources);
      // The DPoP proof is part of the credential (RFC 9449 §7.1), and already spent (replay store).
      if (dpopSection.of(config) !== undefined) headers.delete('dpop');
    }
    if (outcome.anonymous) {
      observe.count('public');
      observe.point('anonymous');
      return this.#send(cx.request, out);
    }
    if (claims !== undefined) for (const [header, value] of claims) headers.set(header, value);
    // Envoy's forward_payload_header: base64url of the verified payload's JSON.
    if (config.forwardPayload !== undefined)
      headers.set(config.forwardPayload, this.#parts.payloadHeader!(outcome.payload));
    // A service binding has no URL of its own: the assertion's default audience is then the guard's origin.
    if (assertion !== undefined)
      await assertion.stamp(
        headers,
        outcome.payload,
        new URL(cx.url.href),
        typeof config.origin === 'object' ? undefined : config.origin,
        cx.proven,
      );
    observe.count('accepted');
    observe.point('accepted', outcome.issuer);
    const res = withTiming(await this.#send(cx.request, out), outcome.timing);
    // RFC 9449 §8.2: the next nonce, when the proof used the previous one.
    if (cx.dpopNonce !== undefined) res.headers.set('dpop-nonce', cx.dpopNonce);
    return res;
  }

  /**
   * What goes to the origin: a Request to the configured origin URL (or the service
   * binding, or the request's own URL) whose headers are a copy of the client's, or
   * for the echo origin the copy alone. undefined: the runtime will not build it.
   */
  #outgoing(cx: RequestContext, path: string): Outgoing | undefined {
    const { request, url } = cx;
    const origin = this.#parts.config.origin;
    if (typeof origin === 'object') {
      const r = this.#parts.service!.request(request, url, path, request.headers);
      return r === undefined ? undefined : { request: r, headers: r.headers, echo: undefined };
    }
    // Path and query go after the origin's scheme, host and port: the request never picks
    // them (a path read as a URL reference could: `//host/x`). See forwardUrl.
    const prefix = this.#originPrefix;
    let target: string | URL;
    if (prefix !== undefined) target = forwardUrl(prefix, path, url.search);
    else {
      target = new URL(url.href);
      target.pathname = path;
      target.search = url.search;
      target.hash = '';
      if (origin === ECHO_ORIGIN) return { request: undefined, headers: new Headers(request.headers), echo: target };
    }
    try {
      // duplex: Node and Deno refuse a stream body without it; the body streams through, never buffered.
      const { method, headers, body } = request;
      const r = new Request(target, { method, headers, body, redirect: 'manual', duplex: 'half' } as RequestInit);
      return { request: r, headers: r.headers, echo: undefined };
    } catch {
      return undefined;
    }
  }

  #send(request: Request, out: Outgoing): Promise<Response> {
    if (out.echo !== undefined) return Promise.resolve(echo(request, out.echo, out.headers));
    let sent: Promise<Response>;
    try {
      sent =
        typeof this.#parts.config.origin === 'object'
          ? this.#parts.service!.fetch(out.request!)
          : this.#parts.fetch(out.request!);
    } catch {
      return Promise.resolve(this.#originError());
    }
    // Responses from fetch have immutable headers; copy so Server-Timing can be added.
    return sent.then(
      (res) => new Response(res.body, res),
      () => this.#originError(),
    );
  }

  #originError(): Response {
    this.#observe.count('origin_error');
    return answer.badGateway();
  }
}

/**
 * The configured origin's URL without path, query or fragment (`https://o.example:8443`).
 *
 * @example
 * originPrefix('https://o.example/base?x#y'); // 'https://o.example'
 */
export function originPrefix(origin: string): string {
  const u = new URL(origin);
  u.pathname = '/';
  u.search = '';
  u.hash = '';
  // An http(s) URL (config.ts allows no other) with path `/` and no query or fragment ends in that `/`.
  return u.href.slice(0, -1);
}

/**
 * The URL an authorised request goes to: the origin's prefix, the forwarded path
 * and the request's query, as one string. The same URL as setting `pathname` and
 * `search` on a copy of the origin's URL (test/worker/guard-fast-paths.test.ts
 * checks it): `path` is a path the runtime's URL parser already serialised (or the
 * canonical form of one), so it starts with `/`, holds no `?` or `#`, and parses to
 * itself; `search` is `url.search` ('' or `?` and a serialised query).
 *
 * @example
 * forwardUrl('https://o.example', '/api/x', '?q=1'); // 'https://o.example/api/x?q=1'
 */
export function forwardUrl(prefix: string, path: string, search: string): string {
  return prefix + path + search;
}
