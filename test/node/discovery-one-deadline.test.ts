// OIDC discovery under one deadline (issue 35): the document (stores, then the issuer) and the key set
// it names are looked up one after the other by one verify, so they share the verify's deadline.
// The clock is faked: a document read "takes" 400 ms and the issuer hangs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRemoteJWKSet } from '../../src/index.js';
import { DiscoveredKeySource } from '../../src/worker/discovery.js';
import type { AlgSpec } from '../../src/algorithms.js';
import { later, timed } from './faked-clock.js';

const ISSUER = 'https://issuer.example';
const TIMEOUT = 600;
const hung = (() => new Promise<Response>(() => undefined)) as unknown as typeof fetch;
const spec = { alg: 'RS256' } as unknown as AlgSpec;

/** The discovery source of ISSUER whose stored document (after 400 ms) is `doc`; the issuer hangs. */
function discovered(doc: unknown): DiscoveredKeySource {
  return new DiscoveredKeySource({
    issuer: ISSUER,
    fetch: hung,
    timeoutMs: TIMEOUT,
    cooldownMs: 30_000,
    now: () => Date.now(),
    store: { getDocument: () => later(400, doc), putDocument: () => undefined },
    keySet: (url) => createRemoteJWKSet(url, { fetch: hung, timeoutDuration: TIMEOUT }),
    log: () => undefined,
  });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('discovery under one deadline', () => {
  it('discovery_lookup_waits_at_most_timeout_overall_when_the_document_must_be_fetched', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { ms, code } = await timed(() => discovered(undefined).select(spec, 'k1'));
    expect(code).toBe('ERR_JWKS_TIMEOUT');
    expect(ms).toBeLessThanOrEqual(TIMEOUT + 10);
  });

  it('discovery_lookup_waits_at_most_timeout_overall_when_the_key_set_must_be_fetched', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const doc = { issuer: ISSUER, jwks_uri: `${ISSUER}/keys` };
    const { ms, code } = await timed(() => discovered(doc).select(spec, 'k1'));
    expect(code).toBe('ERR_JWKS_TIMEOUT');
    expect(ms).toBeLessThanOrEqual(TIMEOUT + 10);
  });
});
