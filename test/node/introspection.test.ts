// The introspection client (src/introspection/, RFC 7662) against a fake endpoint: the request
// it sends, the answers it accepts, the hostile ones it refuses with a typed error, the cache
// (bounded by exp and cacheMs; inactive verdicts briefly; failures never), one request in flight
// per token, one deadline over the whole exchange.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../src/introspection/answer.js';
import { createIntrospector, INACTIVE_CACHE_MS, MAX_ANSWER_BYTES } from '../../src/introspection/client.js';
import type { IntrospectionOptions } from '../../src/introspection/client.js';
import { IntrospectionError } from '../../src/introspection/error.js';
import { parseIntrospection } from '../../src/introspection/config.js';
import { looksLikeJwt } from '../../src/introspection/shape.js';
import { ConfigError } from '../../src/worker/config-error.js';

const ISSUER = 'https://as.example.com';
const ENDPOINT = 'https://as.example.com/token/introspection';
const TOKEN = 'opaque-Token_value~1';
const SECRET = 'a secret: with+reserved&chars é';
const T0 = 1_800_000_000_000;
const EXP = T0 / 1000 + 3600;

interface Seen {
  url: string;
  init: RequestInit;
  self: unknown;
}

/** A fake endpoint: `answer` per call, every call recorded (and who it was called on). */
function endpoint(answer: (call: number) => Response | Promise<Response>): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const f = function (this: unknown, url: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    seen.push({ url: String(url), init: init!, self: this });
    return Promise.resolve(answer(seen.length));
  };
  return { fetch: f as typeof fetch, seen };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: JSON_TYPE });

function make(f: typeof fetch, extra: Partial<IntrospectionOptions> = {}, clock = { t: T0 }) {
  const client = { clientId: 'guard:1', clientSecret: SECRET };
  return createIntrospector({ issuer: ISSUER, endpoint: ENDPOINT, ...client, fetch: f, now: () => clock.t, ...extra });
}

async function failure(p: Promise<unknown>): Promise<IntrospectionError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(IntrospectionError);
  const err = e as IntrospectionError;
  // Never the token, the secret or the client's credentials in what may be logged.
  for (const text of [err.message, String((err.cause as Error | undefined)?.message ?? '')]) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('secret');
  }
  return err;
}

describe('the request (RFC 7662 §2.1, RFC 6749 §2.3.1)', () => {
  it('introspection_posts_form_with_client_secret_basic', async () => {
    const { fetch, seen } = endpoint(() => json({ active: false }));
    await make(fetch).introspect(TOKEN);
    expect(seen).toHaveLength(1);
    const { url, init } = seen[0]!;
    expect(url).toBe(ENDPOINT);
    expect(init.method).toBe('POST');
    expect(init.redirect).toBe('manual');
    expect(init.signal).toBeInstanceOf(AbortSignal);
    const headers = init.headers as Record<string, string>;
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(init.body as string).get('token')).toBe(TOKEN);
    expect(new URLSearchParams(init.body as string).get('token_type_hint')).toBe('access_token');
    // The id and the secret are form-encoded before base64 (§2.3.1): the server decodes them back.
    const [id, secret] = atob(headers.authorization!.replace(/^Basic /, '')).split(':');
    expect(id).toBe('guard%3A1');
    expect(new URLSearchParams(`s=${secret}`).get('s')).toBe(SECRET);
  });

  it('introspection_fetch_called_as_a_plain_function', async () => {
    const { fetch, seen } = endpoint(() => json({ active: false }));
    await make(fetch).introspect(TOKEN);
    // A runtime fetch called as a method of the options object throws "Illegal invocation" in workerd.
    expect(seen[0]!.self).toBeUndefined();
  });
});

describe('answers', () => {
  it('introspection_active_answer_gives_jwt_shaped_claims', async () => {
    const body = {
      ...{ active: true, scope: 'read write', client_id: 'c1', sub: 'u1', aud: ['https://api.example.com'] },
      ...{ exp: EXP, nbf: EXP - 7200, cnf: { jkt: 'abc' }, ext: { x: [1] } },
    };
    const v = await make(endpoint(() => json(body)).fetch).introspect(TOKEN);
    expect(v.active).toBe(true);
    if (!v.active) return;
    const { active: _, ...rest } = body;
    expect(v.claims).toEqual({ ...rest, iss: ISSUER });
    expect(Object.isFrozen(v.claims)).toBe(true);
    expect(Object.isFrozen((v.claims as { ext: { x: number[] } }).ext.x)).toBe(true);
  });

  it('introspection_inactive_answer', async () => {
    const { fetch } = endpoint(() => json({ active: false, sub: 'ignored' }));
    expect(await make(fetch).introspect(TOKEN)).toEqual({ active: false });
  });

  it('introspection_hostile_answers_are_typed_errors', async () => {
    const bad: [unknown, string][] = [
      [{ active: 'true', exp: EXP }, 'active is not a boolean'],
      [{ active: 1, exp: EXP }, 'active is not a boolean'],
      [{ exp: EXP }, 'active is not a boolean'],
      [{ active: true }, 'exp missing'],
      [{ active: true, exp: String(EXP) }, 'exp missing'],
      [{ active: true, exp: null }, 'exp missing'],
      [{ active: true, exp: EXP, iss: 'https://evil.example' }, 'iss names another issuer'],
      [{ active: true, exp: EXP, iss: ['https://as.example.com'] }, 'iss names another issuer'],
      [{ active: true, exp: EXP, sub: ['u1'] }, 'sub is not a string'],
      [{ active: true, exp: EXP, scope: ['read'] }, 'scope is not a string'],
      [{ active: true, exp: EXP, client_id: 7 }, 'client_id is not a string'],
      [{ active: true, exp: EXP, aud: ['a', 1] }, 'aud is not a string'],
      [{ active: true, exp: EXP, aud: { a: 1 } }, 'aud is not a string'],
      [{ active: true, exp: EXP, nbf: '0' }, 'nbf is not a finite number'],
      [{ active: true, exp: EXP, cnf: 'jkt' }, 'cnf is not an object'],
      [{ active: true, exp: EXP, cnf: [] }, 'cnf is not an object'],
      [[{ active: true, exp: EXP }], 'not a JSON object'],
      [null, 'not a JSON object'],
    ];
    for (const [body, reason] of bad) {
      const err = await failure(make(endpoint(() => json(body)).fetch).introspect(TOKEN));
      expect(err.code, JSON.stringify(body)).toBe('ERR_INTROSPECTION_INVALID');
      expect(err.message).toContain(reason);
    }
    const notJson = await failure(make(endpoint(() => new Response('<html>ok</html>')).fetch).introspect(TOKEN));
    expect(notJson.code).toBe('ERR_INTROSPECTION_INVALID');
    // 1e400 parses as Infinity: never a time.
    expect(() => readAnswer('{"active":true,"exp":1e400}', ISSUER)).toThrow(/exp missing/);
  });

  it('introspection_huge_answer_refused_at_the_cap', async () => {
    const big = JSON.stringify({ active: true, exp: EXP, pad: 'x'.repeat(MAX_ANSWER_BYTES) });
    // Streamed without a content-length: the read stops at the first byte over.
    const stream = (): Response =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode(big));
            c.close();
          },
        }),
      );
    const err = await failure(make(endpoint(stream).fetch).introspect(TOKEN));
    expect(err.code).toBe('ERR_INTROSPECTION_INVALID');
    const sized = endpoint(() => new Response(big, { headers: { 'content-length': String(big.length) } }));
    const declared = await failure(make(sized.fetch).introspect(TOKEN));
    expect(declared.code).toBe('ERR_INTROSPECTION_INVALID');
  });
});

describe('the endpoint failing is the server side (503), never a verdict', () => {
  it('introspection_refused_client_credentials_is_server_error', async () => {
    for (const status of [401, 403]) {
      const { fetch } = endpoint(() => json({ error: 'invalid_client' }, status));
      const err = await failure(make(fetch).introspect(TOKEN));
      expect(err.code).toBe('ERR_INTROSPECTION_FAILED');
      expect(err.message).toContain('client credentials refused');
    }
  });

  it('introspection_other_status_redirect_and_network_fault_are_server_errors', async () => {
    const location = 'https://evil.example/';
    const redirect = (): Response => new Response(null, { status: 302, headers: { location } });
    for (const answer of [() => json({}, 500), redirect, () => json({}, 204)]) {
      expect((await failure(make(endpoint(answer).fetch).introspect(TOKEN))).code).toBe('ERR_INTROSPECTION_FAILED');
    }
    const down = (() => Promise.reject(new TypeError('fetch failed'))) as unknown as typeof fetch;
    expect((await failure(make(down).introspect(TOKEN))).message).toContain('network error');
  });

  it('introspection_deadline_covers_headers_and_body', async () => {
    const never = (() => new Promise<Response>(() => undefined)) as unknown as typeof fetch;
    const headersLate = await failure(make(never, { timeoutMs: 50 }).introspect(TOKEN));
    expect(headersLate.code).toBe('ERR_INTROSPECTION_FAILED');
    expect(headersLate.message).toContain('timed out');
    // Headers at once, then a body that never ends.
    const start = (c: ReadableStreamDefaultController): void => c.enqueue(new TextEncoder().encode('{"active":'));
    const drip = endpoint(() => new Response(new ReadableStream({ start })));
    const started = Date.now();
    const bodyLate = await failure(make(drip.fetch, { timeoutMs: 80 }).introspect(TOKEN));
    expect(bodyLate.message).toContain('timed out');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('the cache and the single flight', () => {
  it('introspection_positive_cached_until_min_exp_cacheMs', async () => {
    const clock = { t: T0 };
    const { fetch, seen } = endpoint(() => json({ active: true, exp: T0 / 1000 + 20 }));
    const intro = make(fetch, { cacheMs: 60_000 }, clock);
    await intro.introspect(TOKEN);
    clock.t = T0 + 19_999;
    expect(intro.cached(TOKEN)?.active).toBe(true);
    await intro.introspect(TOKEN);
    expect(seen).toHaveLength(1);
    // exp (20 s) comes before cacheMs (60 s): asked again once exp passes.
    clock.t = T0 + 20_000;
    expect(intro.cached(TOKEN)).toBeUndefined();
    await intro.introspect(TOKEN);
    expect(seen).toHaveLength(2);

    const short = endpoint(() => json({ active: true, exp: EXP }));
    const clock2 = { t: T0 };
    const intro2 = make(short.fetch, { cacheMs: 1000 }, clock2);
    await intro2.introspect(TOKEN);
    clock2.t = T0 + 999;
    await intro2.introspect(TOKEN);
    clock2.t = T0 + 1000;
    await intro2.introspect(TOKEN);
    expect(short.seen).toHaveLength(2);
  });

  it('introspection_inactive_cached_briefly_and_failures_never', async () => {
    const clock = { t: T0 };
    const { fetch, seen } = endpoint(() => json({ active: false }));
    const intro = make(fetch, { cacheMs: 60_000 }, clock);
    await intro.introspect(TOKEN);
    clock.t = T0 + INACTIVE_CACHE_MS - 1;
    await intro.introspect(TOKEN);
    expect(seen).toHaveLength(1);
    clock.t = T0 + INACTIVE_CACHE_MS;
    await intro.introspect(TOKEN);
    expect(seen).toHaveLength(2);

    const failing = endpoint(() => json({}, 503));
    const intro2 = make(failing.fetch);
    await failure(intro2.introspect(TOKEN));
    await failure(intro2.introspect(TOKEN));
    expect(failing.seen).toHaveLength(2);

    const off = endpoint(() => json({ active: true, exp: EXP }));
    const intro3 = make(off.fetch, { cacheMs: 0 });
    await intro3.introspect(TOKEN);
    await intro3.introspect(TOKEN);
    expect(off.seen).toHaveLength(2);
  });

  it('introspection_single_flight_per_token', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { fetch, seen } = endpoint(async () => {
      await gate;
      return json({ active: true, exp: EXP });
    });
    const intro = make(fetch);
    const all = Promise.all([...Array(20)].map(() => intro.introspect(TOKEN)));
    const other = intro.introspect(`${TOKEN}2`);
    release();
    const verdicts = await all;
    await other;
    expect(seen).toHaveLength(2);
    expect(new Set(verdicts).size).toBe(1);
  });
});

describe('the issuers[].introspection section', () => {
  const base = { endpoint: ENDPOINT, clientId: 'guard', secretBinding: 'AS_SECRET' };
  const setting = (v: unknown): string | undefined => {
    try {
      parseIntrospection(v, 'issuers[0]');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as ConfigError).setting;
    }
    return undefined;
  };

  it('introspection_endpoint_https_or_loopback_http_like_jwks_url', () => {
    expect(parseIntrospection(base, 'issuers[0]')).toEqual({ ...base, cacheMs: 30_000, timeoutMs: 3_000 });
    for (const endpoint of ['http://127.0.0.1:9000/introspect', 'http://localhost/i', 'http://[::1]:1/i']) {
      expect(parseIntrospection({ ...base, endpoint }, 'issuers[0]')?.endpoint).toBe(endpoint);
    }
    const refused = ['http://as.example.com/introspect', 'ftp://as.example.com/', 'https://as.example.com/i#x', 'as'];
    for (const endpoint of refused) {
      expect(setting({ ...base, endpoint }), endpoint).toBe('issuers[0].introspection.endpoint');
    }
  });

  it('introspection_section_refuses_unknown_and_out_of_range_settings', () => {
    expect(setting({ ...base, clientSecret: 'inline' })).toBe('issuers[0].introspection.clientSecret');
    expect(setting({ ...base, secretBinding: '' })).toBe('issuers[0].introspection.secretBinding');
    expect(setting({ ...base, clientId: undefined })).toBe('issuers[0].introspection.clientId');
    expect(setting({ ...base, cacheMs: -1 })).toBe('issuers[0].introspection.cacheMs');
    expect(setting({ ...base, cacheMs: 3_600_001 })).toBe('issuers[0].introspection.cacheMs');
    expect(setting({ ...base, timeoutMs: 50 })).toBe('issuers[0].introspection.timeoutMs');
    expect(setting('https://as.example.com/i')).toBe('issuers[0].introspection');
    expect(parseIntrospection(undefined, 'issuers[0]')).toBeUndefined();
  });
});

describe('which tokens are introspected', () => {
  it('looks_like_jwt_exactly_two_or_four_dots_of_base64url', () => {
    expect(looksLikeJwt('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln')).toBe(true);
    expect(looksLikeJwt('eyJhbGciOiJub25lIn0.e30.')).toBe(true);
    expect(looksLikeJwt('eyJhbGciOiJkaXIifQ..aXY.Y3Q.dGFn')).toBe(true);
    const opaque = ['2YotnFZFEjr1zCsicMWpAA', 'a.b', 'a.b.c.d', 'a.b.c.d.e.f', '.b.c', 'a.b+.c', 'a.b.c='];
    opaque.push('a/b.c.d', 'tok~en.x.y', '');
    for (const t of opaque) {
      expect(looksLikeJwt(t), t).toBe(false);
    }
  });
});

describe('hostile bodies, generated', () => {
  it('introspection_never_untyped_error_never_active_unless_true', async () => {
    const any = fc.jsonValue();
    const value = fc.oneof(
      any,
      fc.record({ active: any, exp: fc.oneof(any, fc.constant(EXP)) }),
      fc.record(
        { active: fc.constant(true), exp: fc.constant(EXP), iss: any, aud: any, scope: any, cnf: any },
        { requiredKeys: ['active', 'exp'] },
      ),
    );
    const bytes = fc.uint8Array().map((b) => String.fromCharCode(...b));
    const body = fc.oneof(
      value.map((v) => JSON.stringify(v)),
      fc.string(),
      bytes,
    );
    await fc.assert(
      fc.asyncProperty(body, async (text) => {
        const intro = make(endpoint(() => new Response(text)).fetch, { cacheMs: 0 });
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        try {
          const v = await intro.introspect(TOKEN);
          const active = (parsed as { active?: unknown } | null)?.active;
          if (v.active) expect(active).toBe(true);
          else expect(active).toBe(false);
        } catch (e) {
          expect(e).toBeInstanceOf(IntrospectionError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
