// The guard with what an embedder calls besides serving: `authenticate` (the decision
// without forwarding, createGuard's and createLeanGuard's), `verify` (the tiers alone),
// `counters` and `l1Size`. A subclass in its own module, so an entry that only serves (a compiled
// entry: compiled.ts builds a plain Guard) does not bundle them.

import { RequestContext, type AuthOutcome, type Verified, type WaitUntil } from './context.js';
import { internalFault } from './fault.js';
import { Guard } from './guard.js';
import { canonicalPath, type CanonicalPath } from './path.js';
import { requestTarget, type RequestTarget } from './request-url.js';

/**
 * What startGuard, createGuard and createLeanGuard build.
 *
 * @example
 * const guard = new EmbeddableGuard(await buildParts(config, env, {}, allFeatures));
 * const o = await guard.authenticate(request, ctx);
 */
export class EmbeddableGuard extends Guard {
  /** The guard's counters (the admin endpoint's figures). */
  get counters(): Guard['parts']['counters'] {
    return this.parts.counters;
  }

  /** Entries in this isolate's L1 (bounded by cache.l1Max; the load test watches it). */
  get l1Size(): number {
    return this.tiers.l1Size;
  }

  /**
   * Decide on a request without forwarding it: the identity, an anonymous pass
   * (public path, auth "none", or "optional" without a token), or the exact
   * refusal the guard would send (a 400 for a path src/worker/path.ts refuses, a 500 for a fault).
   */
  async authenticate(
    request: Request,
    ctx: WaitUntil,
    url: RequestTarget = requestTarget(request.url),
    path: CanonicalPath = canonicalPath(url.pathname, this.parts.config.paths.escapedSlashes),
  ): Promise<AuthOutcome> {
    try {
      return await this.decide(new RequestContext(request, url, ctx), path);
    } catch (e) {
      return { ok: false, response: internalFault(e, this.parts) };
    }
  }

  /** L1 (this isolate) -> L2 (KV, for the configured algorithms) -> full verify by the library. */
  async verify(token: string, ctx: WaitUntil): Promise<Verified> {
    return this.tiers.verify(token, ctx, { opened: undefined });
  }
}
