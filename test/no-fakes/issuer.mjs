// The one server every runtime of the nothing-injected suite talks to, on
// 127.0.0.1: an OIDC issuer (discovery document, key set with an RS256 and an
// ES256 key made at start) and an origin that answers any other path with what it
// received (method, path, SHA-256 of the body, its length), except the files
// handed to `serve` (the browser's page). Node only: the harness starts it once
// and hands its URL and tokens to every runtime.
import { createHash, createSign, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const b64u = (b) => Buffer.from(b).toString('base64url');

function keyPair(alg) {
  const { privateKey, publicKey } =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = `${alg.toLowerCase()}-${randomUUID().slice(0, 8)}`;
  return { alg, kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg, use: 'sig' } };
}

function sign(key, claims) {
  const input = `${b64u(JSON.stringify({ alg: key.alg, typ: 'JWT', kid: key.kid }))}.${b64u(JSON.stringify(claims))}`;
  const signer = createSign('SHA256').update(input);
  // JWS ES256 signatures are r || s (RFC 7518 §3.4), not DER.
  const signature = signer.sign(
    key.alg === 'RS256' ? key.privateKey : { key: key.privateKey, dsaEncoding: 'ieee-p1363' },
  );
  return `${input}.${b64u(signature)}`;
}

/** The echo origin's answer: what a forwarded request carried, read to its end. */
function json(res, body) {
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function echo(req, res) {
  const hash = createHash('sha256');
  let length = 0;
  for await (const chunk of req) {
    hash.update(chunk);
    length += chunk.length;
  }
  const sub = req.headers['x-auth-sub'] ?? null;
  json(res, { method: req.method, path: req.url, sha256: hash.digest('hex'), length, sub });
}

/**
 * Starts the server; resolves to its base URL (also the issuer), tokens, `serve(path, type,
 * body)` (answer GET `path` with `body` from then on) and `close`.
 *
 * @example
 * const issuer = await startIssuer(); // issuer.base = 'http://127.0.0.1:PORT'
 * issuer.serve('/page.html', 'text/html; charset=utf-8', '<!doctype html>');
 */
export async function startIssuer() {
  const keys = [keyPair('RS256'), keyPair('ES256')];
  const files = new Map();
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (files.has(path)) {
      const { type, body } = files.get(path);
      res.writeHead(200, { 'content-type': type }).end(body);
    } else if (path === '/jwks.json') {
      json(res, { keys: keys.map((k) => k.jwk) });
    } else if (path === '/.well-known/openid-configuration') {
      json(res, { issuer: base, jwks_uri: `${base}/jwks.json` });
    } else {
      echo(req, res).catch(() => res.destroy());
    }
  });
  // A stuck client must not keep the harness alive.
  server.requestTimeout = 30_000;
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  const now = Math.floor(Date.now() / 1000);
  const claims = { iss: base, aud: 'api', sub: 'alice', iat: now, exp: now + 900 };
  const stranger = keyPair('RS256'); // never published
  const tokens = {
    RS256: sign(keys[0], claims),
    ES256: sign(keys[1], claims),
    // A good signature under a key the issuer never published, with the kid of one it did publish.
    forged: sign({ ...stranger, kid: keys[0].kid }, claims),
  };
  return {
    base,
    tokens,
    serve: (path, type, body) => files.set(path, { type, body }),
    close: () => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(ok));
    },
  };
}
