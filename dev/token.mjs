// `npm run token -- --sub alice --scope "read admin" [--ttl 3600]`: prints a demo
// token on stdout (and a curl line on stderr) for the `npm run dev` guard. DEV ONLY.
import { mintDemoToken, parseFlags } from './demo-issuer.mjs';

let flags;
try {
  flags = parseFlags(process.argv.slice(2), ['sub', 'scope', 'ttl', 'port']);
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
const ttl = flags.ttl === undefined ? 3600 : Number(flags.ttl);
if (!Number.isInteger(ttl) || ttl <= 0) {
  console.error('--ttl must be a positive whole number of seconds');
  process.exit(2);
}
const token = await mintDemoToken({ sub: flags.sub ?? 'alice', scope: flags.scope ?? 'read', ttl });
process.stdout.write(`${token}\n`);
process.stderr.write(`\ncurl -i http://127.0.0.1:${flags.port ?? 8787}/hello -H "Authorization: Bearer ${token}"\n`);
