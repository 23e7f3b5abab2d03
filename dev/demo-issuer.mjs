// DEV ONLY: mints tokens from the demo issuer that `npm run dev` trusts
// (wrangler.toml [env.dev]). The private key in demo-issuer.private.jwk.json is
// public; nothing outside local development may ever accept it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SignJWT, importJWK } from 'jose';

export const ISSUER = 'https://demo-issuer.edgejwt.invalid';
export const AUDIENCE = 'edgejwt-demo';

const keyFile = fileURLToPath(new URL('./demo-issuer.private.jwk.json', import.meta.url));

/** `ttl`: seconds from now to `exp`; negative mints a token that has already expired. */
export async function mintDemoToken({ sub = 'alice', scope = 'read', ttl = 3600, iss = ISSUER, aud = AUDIENCE, claims = {} } = {}) {
  const { _warning, ...jwk } = JSON.parse(readFileSync(keyFile, 'utf8'));
  const key = await importJWK(jwk, 'EdDSA');
  const now = Math.floor(Date.now() / 1000);
  const exp = now + ttl;
  return new SignJWT({ scope, ...claims })
    .setProtectedHeader({ alg: 'EdDSA', kid: jwk.kid, typ: 'JWT' })
    .setIssuer(iss)
    .setAudience(aud)
    .setSubject(sub)
    // An expired token was issued before it expired.
    .setIssuedAt(Math.min(now, exp - 60))
    .setExpirationTime(exp)
    .sign(key);
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
      throw new Error(`unknown or incomplete option ${flag}; expected ${allowed.map((a) => `--${a} <value>`).join(' ')}`);
    }
    out[flag.slice(2)] = argv[++i];
  }
  return out;
}
