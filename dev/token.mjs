// `npm run token -- [--sub alice] [--scope "read admin"] [--aud A] [--iss I] [--exp SECONDS]`:
// prints a demo token on stdout (and a curl line on stderr) for the `npm run dev` guard. DEV ONLY.
import { AUDIENCE, ISSUER, mintDemoToken, parseFlags } from './demo-issuer.mjs';

const HELP = `Mint a token from the demo issuer that \`npm run dev\` trusts (DEV ONLY).

Usage: npm run token -- [options]

  --sub <id>         subject (default alice)
  --scope <scopes>   space-separated scopes (default "read"; the dev config's /admin/ needs "admin")
  --aud <audience>   audience (default ${AUDIENCE}; anything else is refused by the guard)
  --iss <issuer>     issuer (default ${ISSUER}; anything else is refused, logged as wrong_issuer)
  --exp <seconds>    seconds from now until exp (default 3600); negative for an expired token
  --ttl <seconds>    the same as --exp
  --port <port>      port in the printed curl line (default 8787)
  --help             this text
`;

let flags;
try {
  flags = parseFlags(process.argv.slice(2), ['sub', 'scope', 'ttl', 'exp', 'aud', 'iss', 'port'], ['help']);
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
const token = await mintDemoToken({ sub: flags.sub ?? 'alice', scope: flags.scope ?? 'read', ttl, iss: flags.iss ?? ISSUER, aud: flags.aud ?? AUDIENCE });
process.stdout.write(`${token}\n`);
process.stderr.write(`\ncurl -i http://127.0.0.1:${flags.port ?? 8787}/hello -H "Authorization: Bearer ${token}"\n`);
