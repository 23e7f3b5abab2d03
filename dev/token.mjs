// `npm run token -- [--sub alice] [--scope "read admin"] [--aud A] [--iss I] [--exp SECONDS]`:
// prints a demo token on stdout (and a curl line on stderr) for the `npm run dev` guard.
// `--dpop [--method M] [--url U]`: a DPoP-bound token and a curl with its one-use proof.
// `--mcp`: a token for the MCP route's resource (RFC 8707 audience) and a JSON-RPC curl. DEV ONLY.
import {
  AUDIENCE,
  DPOP_ISSUER,
  ISSUER,
  MCP_ISSUER,
  mcpResource,
  mintDemoToken,
  mintDpopRequest,
  parseFlags,
} from './demo-issuer.mjs';

const HELP = `Mint a token from the demo issuer that \`npm run dev\` trusts (DEV ONLY).

Usage: npm run token -- [options]

  --sub <id>         subject (default alice)
  --scope <scopes>   space-separated scopes (default "read"; the dev config's /admin/ needs "admin")
  --aud <audience>   audience (default ${AUDIENCE}; anything else is refused by the guard)
  --iss <issuer>     issuer (default ${ISSUER}; anything else is refused, logged as wrong_issuer)
  --exp <seconds>    seconds from now until exp (default 3600); negative for an expired token
  --ttl <seconds>    the same as --exp
  --port <port>      port in the printed curl line (default 8787)
  --dpop             a DPoP-bound token (RFC 9449: cnf.jkt of a fresh ES256 key; RFC 9068
                     shape; issuer ${DPOP_ISSUER}) and a curl with
                     "Authorization: DPoP <token>" and a DPoP proof for that one request:
                     200 the first time, 401 (replay) the second; run it within a minute
  --method <method>  with --dpop: the request method the proof is for (default GET)
  --url <url>        with --dpop: the request URL the proof is for
                     (default http://127.0.0.1:<port>/dpop/hello)
  --mcp              a token for the MCP route (issuer ${MCP_ISSUER}, audience the
                     resource http://127.0.0.1:<port>/mcp, scope "mcp:tools" unless --scope)
                     and a curl POSTing a JSON-RPC tools/list to /mcp
  --help             this text
`;

let flags;
try {
  flags = parseFlags(
    process.argv.slice(2),
    ['sub', 'scope', 'ttl', 'exp', 'aud', 'iss', 'port', 'method', 'url'],
    ['help', 'dpop', 'mcp'],
  );
  if (flags.dpop && flags.mcp) throw new Error('--dpop and --mcp are two different routes: pick one');
  if (!flags.dpop && (flags.method !== undefined || flags.url !== undefined))
    throw new Error('--method and --url go with --dpop');
  if (flags.url !== undefined && !/^https?:\/\/[^/\s]+/.test(flags.url))
    throw new Error('--url must be an absolute http(s) URL');
  if (flags.method !== undefined && !/^[A-Z]+$/.test(flags.method))
    throw new Error('--method must be an upper-case method such as GET or POST');
} catch (e) {
  console.error(`${e.message}\n\n${HELP}`);
  process.exit(2);
}
if (flags.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const raw = flags.exp ?? flags.ttl ?? '3600';
const ttl = Number(raw);
if (!/^-?\d+$/.test(raw) || ttl === 0) {
  console.error('--exp must be a non-zero whole number of seconds (negative: already expired)');
  process.exit(2);
}
const port = flags.port ?? 8787;
const common = { sub: flags.sub ?? 'alice', scope: flags.scope ?? 'read', ttl, aud: flags.aud ?? AUDIENCE };
if (flags.mcp) {
  const aud = flags.aud ?? mcpResource(port);
  const token = await mintDemoToken({
    ...common,
    scope: flags.scope ?? 'mcp:tools',
    aud,
    iss: flags.iss ?? MCP_ISSUER,
  });
  process.stdout.write(`${token}\n`);
  const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
  process.stderr.write(
    `\ncurl -i -X POST ${mcpResource(port)} -H "Authorization: Bearer ${token}" ` +
      `-H "Content-Type: application/json" -d '${body}'\n`,
  );
} else if (flags.dpop) {
  const method = flags.method ?? 'GET';
  const url = flags.url ?? `http://127.0.0.1:${port}/dpop/hello`;
  const { token, proof } = await mintDpopRequest({ ...common, method, url, iss: flags.iss ?? DPOP_ISSUER });
  process.stdout.write(`${token}\n`);
  // The proof names this method and URL, once: a second run of the same curl is a replay (401).
  process.stderr.write(
    `\ncurl -i${method === 'GET' ? '' : ` -X ${method}`} ${url} ` +
      `-H "Authorization: DPoP ${token}" -H "DPoP: ${proof}"\n`,
  );
} else {
  const token = await mintDemoToken({ ...common, iss: flags.iss ?? ISSUER });
  process.stdout.write(`${token}\n`);
  process.stderr.write(`\ncurl -i http://127.0.0.1:${port}/hello -H "Authorization: Bearer ${token}"\n`);
}
