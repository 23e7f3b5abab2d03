// OIDC discovery (OpenID Connect Discovery 1.0 §4): an issuer entry without a
// key source reads `<issuer>/.well-known/openid-configuration`, requires its
// `issuer` to equal the configured one exactly (§4.3: else a look-alike could
// hand us its own keys), takes `jwks_uri` (https; http only on loopback), and
// from then on behaves as a `jwksUrl` issuer. The document is kept beside the key
// set in the same tiers (this data centre's Cache API, then KV; sealed), so a cold
// isolate does not ask the issuer again.

import { Deadline, fetchCapped } from '../keys/fetch-deadline.js';
import type { AlgSpec } from '../algorithms.js';
import { JwtError } from '../errors.js';
import type { KeyEntry } from '../keys/entry.js';
import { KEY_SOURCE, type KeySource } from '../keys/source.js';
import { isLoopback } from './config-values.js';
import type { DocumentStore } from './key-set-tiers.js';

/** Discovery documents are small; anything larger is refused unread. */
const MAX_DOCUMENT = 65_536;
/** How long a good document is kept (memory and KV), seconds. jwks_uri rarely moves. */
const DOCUMENT_TTL = 86_400;

export interface DiscoveryOptions {
  issuer: string;
  fetch: typeof fetch;
  timeoutMs: number;
  cooldownMs: number;
  now: () => number;
  /** The tiers beyond the isolate (Cache API, KV), nearest first. */
  store: DocumentStore | undefined;
  /** Builds the key set once jwks_uri is known (the guard's usual remote set). */
  keySet: (jwksUri: string) => KeySource;
  /** A structured line when the document is refused (wrong issuer, bad jwks_uri). */
  log: (line: string) => void;
}

/** The `.well-known` URL for an issuer (path-preserving, §4.1). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

export class DiscoveredKeySource implements KeySource {
  readonly [KEY_SOURCE] = true as const;
  readonly #o: DiscoveryOptions;
  #set: KeySource | undefined;
  #until = 0;
  #inflight: Promise<KeySource> | undefined;
  #lastFailure = -Infinity;
  #lastError: JwtError | undefined;
  #triedStore = false;

  constructor(options: DiscoveryOptions) {
    this.#o = options;
  }

  select(spec: AlgSpec, kid: string | undefined): KeyEntry | Promise<KeyEntry> {
    if (this.#set !== undefined && this.#o.now() < this.#until) return this.#set.select(spec, kid);
    return this.#lookup(spec, kid);
  }

  // The document, then the key set: one deadline over both, as over a jwksUrl issuer's lookup. The set's own
  // lookup keeps its deadline (it may serve later verifies); this verify waits for it only within ours.
  async #lookup(spec: AlgSpec, kid: string | undefined): Promise<KeyEntry> {
    const deadline = new Deadline(this.#o.timeoutMs);
    try {
      const set = await deadline.race(this.#resolve(deadline));
      return await deadline.race(set.select(spec, kid));
    } finally {
      deadline.clear();
    }
  }

  /** The fetched set's key for `spec` and `kid` while the document and the set are fresh; no I/O. */
  peek(spec: AlgSpec, kid: string | undefined): KeyEntry | undefined {
    if (this.#set === undefined || this.#o.now() >= this.#until) return undefined;
    return this.#set.peek?.(spec, kid);
  }

  #resolve(deadline: Deadline): Promise<KeySource> {
    // A document that expired is still better than none while the issuer is down.
    const now = this.#o.now();
    if (this.#inflight !== undefined) return this.#inflight;
    if (now - this.#lastFailure < this.#o.cooldownMs) {
      if (this.#set !== undefined) return Promise.resolve(this.#set);
      return Promise.reject(this.#lastError ?? new JwtError('ERR_JWKS_FETCH_FAILED'));
    }
    this.#inflight = this.#load(deadline).then(
      (set) => {
        this.#inflight = undefined;
        return set;
      },
      (e: unknown) => {
        this.#inflight = undefined;
        this.#lastFailure = this.#o.now();
        this.#lastError = e instanceof JwtError ? e : new JwtError('ERR_JWKS_FETCH_FAILED');
        if (this.#set !== undefined) return this.#set;
        throw this.#lastError;
      },
    );
    return this.#inflight;
  }

  async #load(deadline: Deadline): Promise<KeySource> {
    const url = discoveryUrl(this.#o.issuer);
    if (!this.#triedStore && this.#o.store !== undefined) {
      this.#triedStore = true;
      const doc = await this.#o.store.getDocument(url, deadline);
      const jwksUri = doc === undefined ? undefined : this.#check(doc, false);
      if (jwksUri !== undefined) return this.#install(jwksUri);
    }
    const doc = await this.#fetchDocument(url, deadline);
    const jwksUri = this.#check(doc, true);
    if (jwksUri === undefined) throw new JwtError('ERR_JWKS_INVALID', { reason: 'discovery document refused' });
    this.#o.store?.putDocument(url, doc, DOCUMENT_TTL);
    return this.#install(jwksUri);
  }

  #install(jwksUri: string): KeySource {
    // Keep the set (and its cached keys) when the document names the same jwks_uri again.
    if (this.#set === undefined || this.#jwksUri !== jwksUri) this.#set = this.#o.keySet(jwksUri);
    this.#jwksUri = jwksUri;
    this.#until = this.#o.now() + DOCUMENT_TTL * 1000;
    return this.#set;
  }

  #jwksUri: string | undefined;

  /** The jwks_uri when the document is acceptable; otherwise undefined (and a log line when asked). */
  #check(doc: unknown, log: boolean): string | undefined {
    const refuse = (reason: string): undefined => {
      if (log) this.#o.log(JSON.stringify({ edgejwt: 'discovery_refused', issuer: this.#o.issuer, reason }));
      return undefined;
    };
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return refuse('not a JSON object');
    const d = doc as { issuer?: unknown; jwks_uri?: unknown };
    // §4.3: exactly the configured issuer, not a prefix or a trailing-slash variant.
    if (d.issuer !== this.#o.issuer) return refuse('issuer in the document differs from the configured issuer');
    if (typeof d.jwks_uri !== 'string') return refuse('no jwks_uri');
    let u: URL;
    try {
      u = new URL(d.jwks_uri);
    } catch {
      return refuse('jwks_uri is not a URL');
    }
    if (u.protocol !== 'https:' && !(u.protocol === 'http:' && isLoopback(u.hostname)))
      return refuse('jwks_uri is not https');
    return u.href;
  }

  async #fetchDocument(url: string, deadline: Deadline): Promise<unknown> {
    // What is left of the lookup's deadline, over request and body (src/keys/fetch-deadline.ts).
    const { text } = await fetchCapped(url, {
      fetch: this.#o.fetch,
      headers: { accept: 'application/json' },
      deadline,
      cap: MAX_DOCUMENT,
      what: 'discovery document',
    });
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new JwtError('ERR_JWKS_INVALID', { reason: 'discovery document is not JSON' });
    }
  }
}
