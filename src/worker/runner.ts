// The runner: one guard runs its chain (stages/index.ts, built by start.ts) on every request.
// Each stage's hooks are called in the chain's order with one RequestContext: `serve` and
// `request` until a hook returns an outcome (a refusal answers; an anonymous pass or the
// identity goes on), then `identity` on the verified identity, then the forward's `pass`.
// The `answer` hooks of the stages a request went through see the answer, last first
// (CORS headers). No promise is made unless a hook waited. Every fault fails closed here:
// 500 with one log line (fault.ts).

import type { GuardParts } from './parts.js';
import { ANONYMOUS, RequestContext, type AuthOutcome, type Verified, type WaitUntil } from './context.js';
import { internalFault } from './fault.js';
import { requestTarget } from './request-url.js';
import type { StageHooks, Step } from './stage.js';

export type { AuthOutcome, WaitUntil } from './context.js';

/** Where the chain stopped: its outcome, and the index of the stage that decided it (the chain's length for a pass). */
interface Walked {
  outcome: AuthOutcome;
  at: number;
}

/**
 * One guard: its shared parts and the hooks of its chain, in order.
 *
 * @example
 * const guard = new Guard(parts, hooks);
 * const res = await guard.handle(request, ctx);
 */
export class Guard {
  readonly parts: GuardParts;
  readonly #hooks: readonly StageHooks[];
  /** The forward stage's hook: the answer to a request let through. */
  readonly #pass: StageHooks['pass'];
  /** The index of the first stage with an `answer` hook (the chain's length when none has one). */
  readonly #firstAnswer: number;

  constructor(parts: GuardParts, hooks: readonly StageHooks[]) {
    this.parts = parts;
    this.#hooks = hooks;
    this.#pass = hooks.find((h) => h.pass !== undefined)?.pass;
    const first = hooks.findIndex((h) => h.answer !== undefined);
    this.#firstAnswer = first < 0 ? hooks.length : first;
  }

  /** The whole guard: the answer of the chain, or the 500 of a fault. */
  async handle(request: Request, ctx: WaitUntil): Promise<Response> {
    try {
      const cx = new RequestContext(request, requestTarget(request.url), ctx);
      const w = this.#walk(cx, 0, undefined, true);
      return await (w instanceof Promise ? w.then((d) => this.#answer(cx, d)) : this.#answer(cx, w));
    } catch (e) {
      // A bug, a runtime fault or a server-side verify failure: 500, one log line, nothing for the client.
      return this.#fault(e);
    } finally {
      this.parts.counters.maybeLog(this.parts.now());
    }
  }

  /** The decision without the guard's own endpoints, the pass or the answer hooks; no promise when nothing waited. */
  decide(cx: RequestContext): AuthOutcome | Promise<AuthOutcome> {
    const w = this.#walk(cx, 0, undefined, false);
    return w instanceof Promise ? w.then((d) => d.outcome) : w.outcome;
  }

  /** Decide without forwarding: the identity, an anonymous pass, or the exact refusal (a 500 for a fault). */
  async authenticate(request: Request, ctx: WaitUntil): Promise<AuthOutcome> {
    try {
      return await this.decide(new RequestContext(request, requestTarget(request.url), ctx));
    } catch (e) {
      return { ok: false, response: this.#fault(e) };
    }
  }

  /** L1 (this isolate) -> L2 (KV, for the configured algorithms) -> full verify by the library. */
  async verify(token: string, ctx: WaitUntil): Promise<Verified> {
    return this.parts.tiers!.verify(token, ctx, { opened: undefined });
  }

  /** The guard's counters (the admin endpoint's figures). */
  get counters(): GuardParts['counters'] {
    return this.parts.counters;
  }

  /** Entries in this isolate's L1 (bounded by cache.l1Max). */
  get l1Size(): number {
    return this.parts.tiers?.l1Size ?? 0;
  }

  /** The hooks from `from` on: before an outcome `serve` and `request`, after an identity `identity`. */
  #walk(cx: RequestContext, from: number, outcome: AuthOutcome | undefined, serve: boolean): Walked | Promise<Walked> {
    const hooks = this.#hooks;
    for (let i = from; i < hooks.length; i++) {
      const h = hooks[i]!;
      let r: Step;
      if (outcome === undefined) {
        r = serve && h.serve !== undefined ? h.serve(cx) : undefined;
        if (r === undefined && h.request !== undefined) r = h.request(cx);
      } else if (h.identity !== undefined) r = h.identity(cx, outcome as Extract<AuthOutcome, { anonymous: false }>);
      if (r instanceof Promise) return r.then((done) => this.#next(cx, i, done ?? outcome, serve));
      if (r !== undefined) {
        if (!r.ok) return { outcome: r, at: i };
        if (r.anonymous) return { outcome: r, at: hooks.length };
        outcome = r;
      }
    }
    // A chain with no stage that reads a token lets every request through anonymously.
    return { outcome: outcome ?? ANONYMOUS, at: hooks.length };
  }

  /** Go on after a hook that waited, as #walk does after one that did not. */
  #next(cx: RequestContext, i: number, r: AuthOutcome | undefined, serve: boolean): Walked | Promise<Walked> {
    if (r !== undefined && !r.ok) return { outcome: r, at: i };
    if (r !== undefined && r.anonymous) return { outcome: r, at: this.#hooks.length };
    return this.#walk(cx, i + 1, r, serve);
  }

  /** The answer of a walk: a refusal's response, or the pass's; then each earlier stage's `answer`, last first. */
  #answer(cx: RequestContext, { outcome, at }: Walked): Response | Promise<Response> {
    if (!outcome.ok) return this.#wrap(cx, outcome.response, at);
    const pass = this.#pass;
    if (pass === undefined) throw new Error('the chain has no stage that passes a request');
    // No answer hook to run: the pass's own promise, none added.
    if (this.#firstAnswer >= at) return pass(cx, outcome);
    return pass(cx, outcome).then((res) => this.#wrap(cx, res, at));
  }

  #wrap(cx: RequestContext, res: Response, at: number): Response {
    for (let i = at - 1; i >= 0; i--) {
      const answer = this.#hooks[i]!.answer;
      if (answer !== undefined) res = answer(cx, res);
    }
    return res;
  }

  /** 500 with one log line; every stage's `fault` hook (CORS's Vary: Origin) on it. */
  #fault(e: unknown): Response {
    let res = internalFault(e, this.parts);
    for (const h of this.#hooks) if (h.fault !== undefined) res = h.fault(res);
    return res;
  }
}
