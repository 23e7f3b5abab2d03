// The size budget's one-issuer inline-key HS256 guard (.size-limit.mjs): createGuard given the
// config inline and only the stages it uses (none: an HMAC secret, the Authorization header,
// a URL origin), as an embedder writes it. JavaScript, not TypeScript: the package is imported
// by its own name, which only the size check (an esbuild alias) resolves.
import { createGuard } from 'edgejwt/worker';

const issuer = { issuer: 'https://hs256.example', audience: 'api', algorithms: ['HS256'], secretBinding: 'HS_KEY' };
const guard = createGuard({ issuers: [issuer], origin: 'builtin:echo', cache: { jwks: false } }, { stages: [] });

export default { fetch: guard.fetch };
