// DEV ONLY: mints tokens from the demo issuer that `npm run dev` trusts
// (wrangler.toml [env.dev]). The private key in demo-issuer.private.jwk.json is
// public; nothing outside local development may ever accept it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SignJWT, base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose';

export const ISSUER = 'https://demo-issuer.edgejwt.invalid';
/** The dev config's second issuer (same key): RFC 9068 access tokens, DPoP required; the only one /dpop/ takes. */
export const DPOP_ISSUER = 'https://demo-issuer.edgejwt.invalid/dpop';
export const AUDIENCE = 'edgejwt-demo';
/** The dev config's third issuer (same key), the only one /mcp takes: no audience of its own, so `resource.id`. */
export const MCP_ISSUER = 'https://demo-issuer.edgejwt.invalid/mcp';

/** The dev guard's resource identifier (RFC 8707) on `port`: what MCP tokens carry as `aud`. */
export const mcpResource = (port) => `http://127.0.0.1:${port}/mcp`;

/**
 * wrangler.toml's [env.dev] GUARD_CONFIG with `resource.id` on `port` (the file says 8787), as JSON text for
 * `wrangler dev --var GUARD_CONFIG:...`: the metadata and every challenge then name the port the guard runs on.
 */
export function devGuardConfig(port) {
  const toml = readFileSync(fileURLToPath(new URL('../wrangler.toml', import.meta.url)), 'utf8');
  const config = JSON.parse(/\[env\.dev\.vars\][\s\S]*?GUARD_CONFIG = '''([\s\S]*?)'''/.exec(toml)[1]);
  return JSON.stringify({ ...config, resource: { ...config.resource, id: mcpResource(port) } });
}

const keyFile = fileURLToPath(new URL('./demo-issuer.private.jwk.json', import.meta.url));

/** `ttl`: seconds from now to `exp`; negative mints a token that has already expired. */
export async function mintDemoToken({
  sub = 'alice',
  scope = 'read',
  ttl = 3600,
  iss = ISSUER,
  aud = AUDIENCE,
  claims = {},
  typ = 'JWT',
} = {}) {
  const { _warning, ...jwk } = JSON.parse(readFileSync(keyFile, 'utf8'));
  const key = await importJWK(jwk, 'EdDSA');
  const now = Math.floor(Date.now() / 1000);
  const exp = now + ttl;
  return (
    new SignJWT({ scope, ...claims })
      .setProtectedHeader({ alg: 'EdDSA', kid: jwk.kid, typ })
      .setIssuer(iss)
      .setAudience(aud)
      .setSubject(sub)
      // An expired token was issued before it expired.
      .setIssuedAt(Math.min(now, exp - 60))
      .setExpirationTime(exp)
      .sign(key)
  );
}

/**
 * A DPoP-bound demo access token and one proof for `method url` (RFC 9449): a fresh ES256
 * key pair is the client's; the token (typ at+jwt, client_id, jti: RFC 9068) carries its
 * thumbprint in cnf.jkt, and the proof is signed by it with the token's hash in ath. The
 * private key is dropped: the proof is good for one request, within the guard's proof age.
 */
export async function mintDpopRequest({ method = 'GET', url, iss = DPOP_ISSUER, ...rest } = {}) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  const jkt = await calculateJwkThumbprint(jwk, 'sha256');
  const token = await mintDemoToken({
    ...rest,
    iss,
    typ: 'at+jwt',
    claims: { client_id: 'demo-client', jti: crypto.randomUUID(), ...rest.claims, cnf: { jkt } },
  });
  const ath = base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))));
  const proof = await new SignJWT({
    htm: method,
    htu: url,
    iat: Math.floor(Date.now() / 1000),
    jti: crypto.randomUUID(),
    ath,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
    .sign(privateKey);
  return { token, proof, jkt };
}

/** `--name value` pairs into an object; unknown flags are an error, not a silent default. */
export function parseFlags(argv, allowed, switches = []) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag.startsWith('--') && switches.includes(flag.slice(2))) {
      out[flag.slice(2)] = true;
      continue;
    }
    if (!flag.startsWith('--') || !allowed.includes(flag.slice(2)) || i + 1 >= argv.length) {
      const every = [...allowed.map((a) => `--${a} <value>`), ...switches.map((s) => `--${s}`)];
      throw new Error(`unknown or incomplete option ${flag}; expected ${every.join(' ')}`);
    }
    out[flag.slice(2)] = argv[++i];
  }
  return out;
}
