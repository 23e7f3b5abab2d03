// The signing input every HMAC bench verifies: a 38-byte header and a ~450-byte
// OIDC-like payload, base64url-encoded (654 bytes).

function b64url(text: string): string {
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export const HEADER = { alg: 'HS256', typ: 'JWT', kid: 'k1' };

export const PAYLOAD = {
  iss: 'https://id.example.com/realms/main',
  sub: '8f14e45f-ceea-467a-9af1-6f1c7d4a0c52',
  aud: ['api://orders', 'api://billing'],
  azp: 'web-frontend',
  exp: 4102444800,
  iat: 1700000000,
  nbf: 1700000000,
  jti: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  scope: 'openid profile email orders:read orders:write billing',
  email: 'alice@example.com',
  email_verified: true,
  name: 'Alice Example',
  preferred_username: 'alice',
  tenant: 'a',
  roles: ['admin', 'editor'],
};

export function signingInput(): string {
  return `${b64url(JSON.stringify(HEADER))}.${b64url(JSON.stringify(PAYLOAD))}`;
}
