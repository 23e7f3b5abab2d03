// A provider on the fake IdP (127.0.0.1): its documents served at its real URLs'
// paths under a unique prefix, and a fetch for the guard that sends each of the
// provider's https hosts there. Tokens are shaped like the provider's (claims,
// header, kid); keys are generated per test run. See docs/deploy.md for the configs.
import { hits, routeHostToIdp, serve } from '../../fake-idp/client.js';
import { b64u, generate, mint, type KeyPair } from '../../shared/jwt-mint.js';
import { TestCtx } from '../harness.js';
import { createGuard, defaultStages } from '../../../src/worker/api.js';
import type { GuardConfigInput } from '../../../src/worker/config-input.js';

export interface FakeProvider {
  key: KeyPair;
  kid: string;
  /** The guard's fetch: every known host goes to the fake IdP over loopback. */
  fetch: typeof fetch;
  /** How many times the guard fetched this https URL. */
  hits(url: string): Promise<number>;
  sign(payload: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  /** The public key as the provider publishes it (with its extra members). */
  jwk(extra?: Record<string, unknown>): Record<string, unknown>;
}

export async function fakeProvider(
  kid: string,
  documents: (p: FakeProvider) => Record<string, { body: unknown; headers?: Record<string, string> }>,
): Promise<FakeProvider> {
  const key = await generate('RS256');
  const prefix = `/p-${crypto.randomUUID()}`;
  const local = (url: string): string => {
    const u = new URL(url);
    return `${prefix}/${u.host}${u.pathname}`;
  };
  const p: FakeProvider = {
    key,
    kid,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
      const u = new URL(new Request(input, init).url);
      return routeHostToIdp(u.host, `${prefix}/${u.host}`)(input, init);
    }) as typeof fetch,
    hits: (url) => hits(local(url)),
    sign: (payload, header = {}) => mint(key, payload, { kid, ...header }),
    jwk: (extra = {}) => ({ ...extra, kty: 'RSA', n: key.publicJwk.n, e: key.publicJwk.e, kid }),
  };
  for (const [url, doc] of Object.entries(documents(p)))
    await serve(local(url), doc.body, { headers: { 'cache-control': 'public, max-age=3600', ...doc.headers } });
  return p;
}

export function nowS(): number {
  return Math.floor(Date.now() / 1000);
}

/** Random hex, as providers' kids and AUD tags are. */
export function hex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export function randomB64u(bytes: number): string {
  return b64u(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A guard over a recipe config (echo origin, so the forwarded identity is visible). */
export function recipeGuard(
  config: GuardConfigInput,
  provider: FakeProvider,
): {
  send(path: string, init?: RequestInit): Promise<{ status: number; headers: Record<string, string>; res: Response }>;
} {
  const logs: string[] = [];
  const guard = createGuard(
    { ...config, origin: 'builtin:echo' },
    { stages: defaultStages, fetch: provider.fetch, log: (l) => logs.push(l) },
  );
  const env = {};
  return {
    async send(path, init) {
      const res = await guard.fetch(new Request(`https://api.example.com${path}`, init), env, new TestCtx());
      const headers =
        res.status === 200 ? ((await res.clone().json()) as { headers: Record<string, string> }).headers : {};
      return { status: res.status, headers, res };
    },
  };
}
