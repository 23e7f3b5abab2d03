// The guard's request path does less per request than it once did: one parse of
// a token's payload (also with the KV verify cache on), and short ways through
// steps whose long way would change nothing (a plain path, `Bearer <token>`, the
// forwarded URL as one string). Each short way is checked against the long one.
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fromAuthorization } from '../../src/bearer/token.js';
import { forwardUrl, originPrefix } from '../../src/worker/stages/forward/forward.js';
import { canonicalPath, canonicalPathByRules } from '../../src/worker/stages/path/path.js';
import { requestTarget } from '../../src/worker/request-url.js';
import { b64u, mint, signInput } from '../shared/jwt-mint.js';
import {
  AUD,
  CACHE_KEY,
  HS_ISS,
  baseConfig,
  bearer,
  demoKeys,
  freshJwksUrl,
  makeGuard,
  nowSeconds,
  type Keys,
} from './harness.js';

const params = { numRuns: 300, seed: 20261123 };

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

/** A config whose KV verify cache takes every algorithm and writes every verification. */
function l2Config(): Record<string, unknown> {
  const c = baseConfig(k, { cache: { verify: 'all', verifyAdmission: 'always', kvTimeoutMs: 25 } });
  (c.issuers as Record<string, unknown>[])[0]!.jwksUrl = freshJwksUrl();
  return c;
}

/**
 * An HS256 token whose payload text has spaces after the colons, so it is never the
 * same string as JSON.stringify of its claims (what the KV entry holds).
 */
async function spacedToken(extra: Record<string, unknown> = {}): Promise<{ token: string; text: string }> {
  const t = nowSeconds();
  const claims: Record<string, unknown> = {
    iss: HS_ISS,
    aud: AUD,
    sub: `u-${crypto.randomUUID()}`,
    scope: 'read',
    iat: t,
    exp: t + 3600,
    ...extra,
  };
  const text = `{${Object.entries(claims)
    .map(([n, v]) => `${JSON.stringify(n)}: ${JSON.stringify(v)}`)
    .join(', ')}}`;
  return { token: await mint(k.hs, text, { typ: 'JWT' }), text };
}

/** JSON.parse calls on exactly `text` while `fn` runs. */
async function parsesOf(text: string, fn: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(JSON, 'parse');
  try {
    await fn();
    return spy.mock.calls.filter(([arg]) => arg === text).length;
  } finally {
    spy.mockRestore();
  }
}

describe('payload_parsed_once_with_l2', () => {
  it('a token verified with the KV verify cache on: its payload is parsed once', async () => {
    const g = await makeGuard(k, { config: l2Config(), env: { CACHE_KEY } });
    const { token, text } = await spacedToken();
    let status = 0;
    const parses = await parsesOf(text, async () => {
      status = (await g.send('/x', bearer(token))).status;
    });
    expect(status).toBe(200);
    expect(g.guard.counters.get('l2_miss')).toBe(1);
    expect(g.guard.counters.get('verified')).toBe(1);
    expect(parses).toBe(1);
  });

  it('an L2 hit: the token payload parsed once (the KV entry is its own text)', async () => {
    const config = l2Config();
    const { token, text } = await spacedToken();
    expect((await (await makeGuard(k, { config, env: { CACHE_KEY } })).send('/x', bearer(token))).status).toBe(200);
    const b = await makeGuard(k, { config, env: { CACHE_KEY } });
    let timing: string | null = null;
    const parses = await parsesOf(text, async () => {
      timing = (await b.send('/x', bearer(token))).headers.get('server-timing');
    });
    expect(timing).toContain('desc="l2"');
    expect(parses).toBe(1);
  });

  it('a token refused after its payload was read: parsed once, and the log still names iss, kid and alg', async () => {
    const g = await makeGuard(k, { config: l2Config(), env: { CACHE_KEY } });
    // A bad signature (the verify fails after the parse), and a claim the /admin/ rule refuses (after the verify).
    const { token: good, text } = await spacedToken();
    const bad = `${good.slice(0, good.lastIndexOf('.'))}.${b64u(new Uint8Array(32))}`;
    let status = 0;
    expect(
      await parsesOf(text, async () => {
        status = (await g.send('/x', bearer(bad))).status;
      }),
    ).toBe(1);
    expect(status).toBe(401);
    const { token: scoped, text: scopedText } = await spacedToken({ scope: 'read admin', tenant: 'other' });
    expect(
      await parsesOf(scopedText, async () => {
        status = (await g.send('/admin/x', bearer(scoped))).status;
      }),
    ).toBe(1);
    expect(status).toBe(403);
    const lines = g.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.edgejwt === 'rejected');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatchObject({ iss: HS_ISS, alg: 'HS256' });
    expect(lines[0]).toMatchObject({ code: 'ERR_JWS_SIGNATURE_INVALID' });
    expect(lines[1]).toMatchObject({ code: 'claim_mismatch', claim: 'tenant' });
  });

  it('without the KV verify cache: parsed once too', async () => {
    const g = await makeGuard(k);
    const { token, text } = await spacedToken();
    expect(await parsesOf(text, async () => expect((await g.send('/x', bearer(token))).status).toBe(200))).toBe(1);
  });

  it(
    'a token whose payload is not JSON is refused as before, ' + 'with or without L2, after one attempt to parse it',
    async () => {
      const text = '{"iss": ';
      const junk = await signInput('HS256', k.hs.privateKey, `${b64u(JSON.stringify({ alg: 'HS256' }))}.${b64u(text)}`);
      for (const g of [await makeGuard(k, { config: l2Config(), env: { CACHE_KEY } }), await makeGuard(k)]) {
        let status = 0;
        expect(
          await parsesOf(text, async () => {
            status = (await g.send('/x', bearer(junk))).status;
          }),
        ).toBe(1);
        expect(status).toBe(401);
        expect(g.guard.counters.get('rejected:ERR_JWT_PAYLOAD_INVALID')).toBe(1);
        // The log line names no iss, kid or alg (nothing was read), as before.
        const line = JSON.parse(g.logs.find((l) => l.includes('"rejected"'))!) as Record<string, unknown>;
        expect(line).toMatchObject({ code: 'ERR_JWT_PAYLOAD_INVALID', status: 401 });
        expect(line).not.toHaveProperty('alg');
      }
    },
  );
});

// Path pieces: every spelling the guard treats specially, and plain ones.
const pathArb = fc
  .array(
    fc.constantFrom(
      '/',
      '//',
      '\\',
      'a',
      'Admin',
      'v1',
      '.',
      '..',
      '...',
      '.a',
      'a.',
      ';',
      ';p=1',
      '%2F',
      '%2f',
      '%5C',
      '%2e',
      '%2E',
      '%61',
      '%zz',
      '%',
      '%00',
      '\0',
      '~',
      '-',
      '_',
      'é',
      '%C3%A9',
      ' ',
      '?',
      '#',
      '@',
      ':',
    ),
    { maxLength: 10 },
  )
  .map((parts) => `/${parts.join('')}`);

describe('plain paths take the short way', () => {
  it('canonicalPath agrees with every step of canonicalPathByRules, for any path and either escapedSlashes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          pathArb,
          fc.string().map((s) => `/${s}`),
          fc.string(),
        ),
        fc.constantFrom('reject' as const, 'decode' as const),
        (p, mode) => {
          expect(canonicalPath(p, mode)).toEqual(canonicalPathByRules(p, mode));
        },
      ),
      params,
    );
  });

  it('plain paths, dot segments in them, and the trailing ones', () => {
    expect(canonicalPath('/api/orders', 'reject')).toEqual({
      ok: true,
      path: '/api/orders',
      readings: ['/api/orders'],
    });
    for (const p of ['/a/./b', '/a/../b', '/..', '/.', '/a/..', '/a/.'])
      expect(canonicalPath(p, 'reject')).toEqual({ ok: false, reason: 'dot_segment' });
    for (const p of ['/a/.../b', '/.a', '/a./', '/'])
      expect(canonicalPath(p, 'reject')).toEqual(canonicalPathByRules(p, 'reject'));
  });
});

describe('the forwarded URL as one string', () => {
  const origins = [
    'https://origin.example.com',
    'https://origin.example.com/',
    'https://origin.example.com/base/x?q=1#f',
    'https://u:p@origin.example.com:8443/b',
    'http://127.0.0.1:8787',
    'https://[::1]/',
  ];

  it('is the URL the origin copy with pathname and search set gives, for any received path and query', () => {
    fc.assert(
      fc.property(
        pathArb,
        fc.constantFrom('', '?', '?x=1', '?a=%2F&b= c', '?#', '?q=é'),
        fc.constantFrom(...origins),
        (raw, query, origin) => {
          let url: URL;
          try {
            url = new URL(`https://api.example.com${raw}${query}`);
          } catch {
            return;
          }
          const c = canonicalPath(url.pathname, 'decode');
          for (const path of c.ok ? [c.path, url.pathname] : [url.pathname]) {
            const old = new URL(origin);
            old.pathname = path;
            old.search = url.search;
            old.hash = '';
            const s = forwardUrl(originPrefix(origin), path, url.search);
            expect(new URL(s).href).toBe(old.href);
            expect(new Request(s).url).toBe(new Request(old).url);
            expect(new URL(s).host).toBe(new URL(origin).host);
          }
        },
      ),
      params,
    );
  });

  it('the prefix keeps scheme, userinfo, host and port and nothing after', () => {
    expect(originPrefix('https://origin.example.com/base?q=1#f')).toBe('https://origin.example.com');
    expect(originPrefix('https://u:p@origin.example.com:8443/b')).toBe('https://u:p@origin.example.com:8443');
    expect(forwardUrl(originPrefix('https://o.example/'), '//evil.example/x', '?a=1')).toBe(
      'https://o.example//evil.example/x?a=1',
    );
    expect(new URL(forwardUrl(originPrefix('https://o.example/'), '//evil.example/x', '')).host).toBe('o.example');
  });
});

describe('the request URL read without a URL object', () => {
  const piece = fc.constantFrom(
    '/',
    '//',
    '\\',
    'a',
    'Z',
    '.',
    '..',
    '%2e',
    '%2F',
    '%',
    '%zz',
    '?',
    '??',
    '#',
    '#?',
    '?#',
    '&',
    '=',
    '@',
    ':',
    ';',
    ' ',
    '\t',
    'é',
    '😀',
    '"',
    '<',
    '`',
    '{',
    '^',
    '|',
    '[',
    ']',
  );
  const authority = fc.constantFrom(
    'api.example.com',
    'API.Example.COM',
    'api.example.com:443',
    'api.example.com:8443',
    'u:p@api.example.com',
    'u%2F:p%3F@api.example.com',
    '127.0.0.1:8787',
    '[::1]:8080',
    'xn--bcher-kva.example',
    'bücher.example',
  );

  it('pathname and search as new URL gives them, for whatever request.url the runtime serialises', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('https://', 'http://', 'HTTPS://', 'https:', 'https:\\\\', ' https://'),
        authority,
        fc.array(piece, { maxLength: 12 }),
        (scheme, host, parts) => {
          let href: string;
          try {
            href = new Request(`${scheme}${host}${parts.join('')}`).url;
          } catch {
            return;
          }
          const u = new URL(href);
          expect(requestTarget(href)).toEqual({ href, pathname: u.pathname, search: u.search });
        },
      ),
      params,
    );
  });

  it('any other href goes through new URL', () => {
    expect(requestTarget('ftp://x.example/a?b')).toEqual({ href: 'ftp://x.example/a?b', pathname: '/a', search: '?b' });
    expect(requestTarget('https://api.example.com/a?#x')).toMatchObject({ pathname: '/a', search: '' });
    expect(requestTarget('https://api.example.com/a#x?y')).toMatchObject({ pathname: '/a', search: '' });
  });
});

describe('Bearer <b64token> takes the short way', () => {
  /** fromAuthorization without its shortcut (the steps it takes for every other value). */
  function byRules(value: string): ReturnType<typeof fromAuthorization> {
    const v = value.trim();
    if (v === '') return { kind: 'none' };
    const space = v.search(/\s/);
    const scheme = space < 0 ? v : v.slice(0, space);
    if (scheme.toLowerCase() !== 'bearer') return { kind: 'none' };
    const rest = space < 0 ? '' : v.slice(space).replace(/^ +/, '');
    return /^[A-Za-z0-9\-._~+/]+=*$/.test(rest) ? { kind: 'token', token: rest } : { kind: 'malformed' };
  }

  it('agrees with the long way for any value', () => {
    const piece = fc.constantFrom(
      'Bearer',
      'bearer',
      'BEARER',
      'Basic',
      ' ',
      '  ',
      '\t',
      '\n',
      'a',
      'Z',
      '0',
      '-',
      '.',
      '_',
      '~',
      '+',
      '/',
      '=',
      '==',
      ',',
      '"',
      'é',
      'eyJ',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
          fc.string(),
          fc.string().map((s) => `Bearer ${s}`),
        ),
        (value) => {
          expect(fromAuthorization(value)).toEqual(byRules(value));
        },
      ),
      params,
    );
  });
});
