// The shared corpus in headless Chromium (an installed Chromium or Chrome, found by
// ./chromium.mjs: CHROMIUM_PATH, then the usual install paths; driven by
// playwright-core: no browser download). build/corpus/browser.js is served from
// a loopback server into a blank page as a module; the page's console goes to
// stdout (so the `[corpus browser] passed=N failed=N` line reaches
// scripts/test-all.mjs) and globalThis.__corpus gives the exit code.
// When no Chromium can be launched it prints `[corpus browser] not run: …` and exits 0,
// except under CI=true, where a browser is required and it exits 1.
// Usage: node test/runtimes/run-browser.mjs [path/to/bundle.js]
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { installHint, startHeadlessChromium } from './chromium.mjs';

const TIMEOUT_MS = 240_000;
const bundle = readFileSync(process.argv[2] ?? 'build/corpus/browser.js');

const page =
  '<!doctype html><meta charset="utf-8"><title>edgejwt corpus</title>' +
  '<script type="module" src="/corpus.js"></script>';
const server = createServer((req, res) => {
  if (req.url === '/') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  } else if (req.url === '/favicon.ico') {
    res.writeHead(204).end();
  } else if (req.url === '/corpus.js') {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
  } else {
    res.writeHead(404).end();
  }
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const origin = `http://127.0.0.1:${server.address().port}`;

const launched = await startHeadlessChromium();
if (launched.notRun) {
  server.close();
  const required = process.env.CI === 'true';
  console.log(`[corpus browser] not run: no Chromium could be launched${required ? ' (CI=true requires one)' : ''}`);
  for (const reason of launched.notRun) console.log(`  ${reason}`);
  console.log(`  install one: ${installHint()}`);
  process.exit(required ? 1 : 0);
}
const browser = launched.browser;

let code = 1;
try {
  const tab = browser.pages()[0] ?? (await browser.newPage());
  tab.on('console', (msg) => console.log(msg.text()));
  tab.on('pageerror', (err) => console.log(`page error: ${err.message}`));
  console.log(`chromium ${browser.browser()?.version() ?? ''} (${launched.path}) at ${origin}`);
  await tab.goto(origin + '/');
  await tab.waitForFunction(() => globalThis.__corpus !== undefined, undefined, { timeout: TIMEOUT_MS, polling: 500 });
  const outcome = await tab.evaluate(() => globalThis.__corpus);
  code = outcome.failed > 0 || outcome.passed === 0 ? 1 : 0;
} catch (e) {
  // No report line: test-all.mjs counts this runner as one failure.
  console.log(`chromium runner failed: ${e instanceof Error ? e.message : String(e)}`);
} finally {
  await launched.close();
  server.close();
}
process.exit(code);
