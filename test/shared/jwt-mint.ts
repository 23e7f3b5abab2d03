// Minting tokens for the shared tests with WebCrypto only (no node: modules),
// so the same corpus runs in Node, workerd, Deno, Bun and browsers.

const enc = new TextEncoder();

export function b64u(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? enc.encode(data) : data;
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function unb64u(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const HASH: Record<string, string> = { '256': 'SHA-256', '384': 'SHA-384', '512': 'SHA-512' };
const CURVE: Record<string, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

export function signParams(alg: string): AlgorithmIdentifier | RsaPssParams | EcdsaParams {
  const bits = alg.slice(2);
  if (alg.startsWith('HS')) return 'HMAC';
  if (alg.startsWith('RS')) return 'RSASSA-PKCS1-v1_5';
  if (alg.startsWith('PS')) return { name: 'RSA-PSS', saltLength: Number(bits) / 8 };
  if (alg.startsWith('ES')) return { name: 'ECDSA', hash: HASH[bits]! };
  return 'Ed25519';
}

export interface KeyPair {
  alg: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JsonWebKey;
  /** HMAC only: the raw secret. */
  secret?: Uint8Array;
}

export async function generate(
  alg: string,
  opts: { modulusLength?: number; secretLength?: number } = {},
): Promise<KeyPair> {
  const bits = alg.slice(2);
  if (alg.startsWith('HS')) {
    const secret = crypto.getRandomValues(new Uint8Array(opts.secretLength ?? Number(bits) / 8));
    const key = await crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: HASH[bits]! }, true, [
      'sign',
      'verify',
    ]);
    return { alg, privateKey: key, publicKey: key, publicJwk: { kty: 'oct', k: b64u(secret) }, secret };
  }
  let params: RsaHashedKeyGenParams | EcKeyGenParams | AlgorithmIdentifier;
  if (alg.startsWith('RS') || alg.startsWith('PS')) {
    params = {
      name: alg.startsWith('RS') ? 'RSASSA-PKCS1-v1_5' : 'RSA-PSS',
      modulusLength: opts.modulusLength ?? 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: HASH[bits]!,
    };
  } else if (alg.startsWith('ES')) {
    params = { name: 'ECDSA', namedCurve: CURVE[alg]! };
  } else {
    params = { name: 'Ed25519' };
  }
  const pair = (await crypto.subtle.generateKey(params, true, ['sign', 'verify'])) as CryptoKeyPair;
  const publicJwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  for (const k of ['key_ops', 'ext', 'alg'] as const) delete publicJwk[k];
  return { alg, privateKey: pair.privateKey, publicKey: pair.publicKey, publicJwk };
}

/** Sign `header.payload` (already-encoded segments allowed via raw strings). */
export async function signInput(alg: string, key: CryptoKey, input: string): Promise<string> {
  const sig = new Uint8Array(await crypto.subtle.sign(signParams(alg), key, enc.encode(input)));
  return `${input}.${b64u(sig)}`;
}

export async function mint(
  pair: Pick<KeyPair, 'alg' | 'privateKey'>,
  payload: Record<string, unknown> | string,
  header: Record<string, unknown> = {},
): Promise<string> {
  const h = b64u(JSON.stringify({ alg: pair.alg, ...header }));
  const p = b64u(typeof payload === 'string' ? payload : JSON.stringify(payload));
  return signInput(pair.alg, pair.privateKey, `${h}.${p}`);
}

export const NOW = 1_800_000_000; // a fixed "now" (2027-01-15) used with currentDate
export const nowDate = new Date(NOW * 1000);

export function claims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { iss: 'https://issuer.example', sub: 'user-1', aud: 'api', iat: NOW - 10, exp: NOW + 600, ...extra };
}

/** Run `fn`, return the JwtError code it threw (or 'OK'), for table-style assertions. */
export async function codeOf(fn: () => unknown): Promise<string> {
  try {
    await fn();
    return 'OK';
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' ? code : `THROWN:${String(e)}`;
  }
}

/** The codes Verifier.prepare reports, one per key it cannot build ([] when it resolves). */
export async function prepareCodes(v: { prepare(): Promise<void> }): Promise<string[]> {
  try {
    await v.prepare();
    return [];
  } catch (e) {
    if (!(e instanceof AggregateError)) return [`THROWN:${String(e)}`];
    return e.errors.map((x: unknown) => {
      const code = (x as { code?: unknown }).code;
      return typeof code === 'string' ? code : `THROWN:${String(x)}`;
    });
  }
}

export function codeOfSync(fn: () => unknown): string {
  try {
    fn();
    return 'OK';
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' ? code : `THROWN:${String(e)}`;
  }
}
