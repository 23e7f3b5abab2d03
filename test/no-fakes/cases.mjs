// The cases of the nothing-injected suite, the same in every runtime: each builds a
// Request for the app (app.mjs) and checks the answer. `send` delivers it: a call of
// the app's handler in Node, Deno, Bun and Chromium, HTTP to `wrangler dev` for workerd.
// WebCrypto and streams only, so this file runs anywhere.

const MIB = 1 << 20;
const CHUNK = 64 << 10;

/** Chunk `i` of the large body: 64 KiB whose bytes depend on `i`, so a lost or reordered chunk changes the hash. */
function chunk(i) {
  const bytes = new Uint8Array(CHUNK);
  for (let j = 0; j < CHUNK; j++) bytes[j] = (i * 31 + j * 7) & 255;
  return bytes;
}

/** 1 MiB as a stream of 64 KiB chunks, produced one pull at a time. */
function largeStream() {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i === MIB / CHUNK) return controller.close();
      controller.enqueue(chunk(i++));
    },
  });
}

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function largeBodyHash() {
  const all = new Uint8Array(MIB);
  for (let i = 0; i < MIB / CHUNK; i++) all.set(chunk(i), i * CHUNK);
  return sha256Hex(all);
}

const bearer = (token) => ({ authorization: `Bearer ${token}` });

function expectJson(res, text, status, fields) {
  if (res.status !== status) return `status ${res.status}, expected ${status}: ${text.slice(0, 200)}`;
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  for (const [k, v] of Object.entries(fields)) {
    if (json[k] !== v) return `${k} = ${JSON.stringify(json[k])}, expected ${JSON.stringify(v)}`;
  }
  return undefined;
}

/**
 * The cases, as `{ name, serverOnly, workerdOnly, request(url), check(res, text) }`; `url` is the
 * app's origin, `tokens` the issuer's (issuer.mjs). `serverOnly`: the guard's, which forward
 * to an origin, a server's job (not run in the browser); `workerdOnly`: the service binding's.
 *
 * @example
 * for (const c of await buildCases(tokens)) console.log(c.name);
 */
export async function buildCases(tokens) {
  const largeHash = await largeBodyHash();
  const smallBody = JSON.stringify({ order: 42, note: 'ünïcode' });
  const smallHash = await sha256Hex(new TextEncoder().encode(smallBody));
  const smallLength = new TextEncoder().encode(smallBody).length;

  const guardCases = (origin) => [
    {
      name: `guard_discovery_get_${origin}_origin`,
      request: (url) => new Request(`${url}/guard/${origin}/items?x=1`, { headers: bearer(tokens.ES256) }),
      check: (res, text) =>
        expectJson(res, text, 200, { method: 'GET', path: `/guard/${origin}/items?x=1`, length: 0, sub: 'alice' }),
    },
    {
      name: `guard_post_body_${origin}_origin`,
      request: (url) =>
        new Request(`${url}/guard/${origin}/orders`, {
          method: 'POST',
          headers: bearer(tokens.RS256),
          body: smallBody,
        }),
      check: (res, text) => expectJson(res, text, 200, { method: 'POST', sha256: smallHash, length: smallLength }),
    },
    {
      name: `guard_post_streamed_1mib_${origin}_origin`,
      request: (url) =>
        new Request(`${url}/guard/${origin}/upload`, {
          method: 'PUT',
          headers: bearer(tokens.RS256),
          body: largeStream(),
          duplex: 'half',
        }),
      check: (res, text) => expectJson(res, text, 200, { method: 'PUT', sha256: largeHash, length: MIB }),
    },
  ];

  return [
    {
      name: 'lib_remote_jwks_verifies_rs256',
      request: (url) => new Request(`${url}/lib/verify`, { headers: bearer(tokens.RS256) }),
      check: (res, text) => expectJson(res, text, 200, { sub: 'alice', alg: 'RS256' }),
    },
    {
      name: 'lib_remote_jwks_verifies_es256',
      request: (url) => new Request(`${url}/lib/verify`, { headers: bearer(tokens.ES256) }),
      check: (res, text) => expectJson(res, text, 200, { sub: 'alice', alg: 'ES256' }),
    },
    {
      name: 'lib_remote_jwks_refuses_forged_signature',
      request: (url) => new Request(`${url}/lib/verify`, { headers: bearer(tokens.forged) }),
      check: (res, text) => expectJson(res, text, 401, { code: 'ERR_JWS_SIGNATURE_INVALID' }),
    },
    {
      name: 'hono_remote_jwks_good_token_200',
      request: (url) => new Request(`${url}/hono/me`, { headers: bearer(tokens.RS256) }),
      check: (res, text) => expectJson(res, text, 200, { sub: 'alice' }),
    },
    {
      name: 'hono_remote_jwks_forged_token_401',
      request: (url) => new Request(`${url}/hono/me`, { headers: bearer(tokens.forged) }),
      check: (res, text) =>
        res.status === 401 && /error="invalid_token"/.test(res.headers.get('www-authenticate') ?? '')
          ? undefined
          : `status ${res.status}, WWW-Authenticate ${res.headers.get('www-authenticate')}: ${text.slice(0, 200)}`,
    },
    ...guardCases('url').map((c) => ({ ...c, serverOnly: true })),
    ...guardCases('service').map((c) => ({ ...c, serverOnly: true, workerdOnly: true })),
  ];
}

/**
 * Runs every case through `send(request)`, each under `timeoutMs`; prints one line per case
 * and returns the counts.
 *
 * @example
 * const { passed, failed } = await runCases('node', cases, 'http://app.local', (req) => handle(req, {}, ctx));
 */
export async function runCases(runtime, cases, url, send, timeoutMs = 20_000) {
  let passed = 0;
  let failed = 0;
  for (const c of cases) {
    let timer;
    const expired = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    });
    let problem;
    try {
      problem = await Promise.race([
        (async () => {
          const res = await send(c.request(url));
          return c.check(res, await res.text());
        })(),
        expired,
      ]);
    } catch (e) {
      problem = `threw ${e?.message ?? e}`;
    } finally {
      clearTimeout(timer);
    }
    if (problem === undefined) passed++;
    else failed++;
    console.log(problem === undefined ? `ok   ${runtime}: ${c.name}` : `FAIL ${runtime}: ${c.name}\n     ${problem}`);
  }
  return { passed, failed };
}
