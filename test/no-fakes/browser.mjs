// Headless Chromium: the library's and hono's routes of app.mjs called in a page, as a
// web app would use edgejwt, with the page's own fetch and WebCrypto. run.mjs bundles
// this file with the package's `browser` condition and the issuer serves it, so the
// page's origin is the issuer's and fetching the key set needs no CORS. The tokens
// arrive in the page's URL fragment (JSON). Prints `chromium: N passed, N failed` and
// sets globalThis.__noFakes to the counts.
import { createLibRoutes } from './app.mjs';
import { buildCases, runCases } from './cases.mjs';

const tokens = JSON.parse(decodeURIComponent(location.hash.slice(1)));
const handle = createLibRoutes(location.origin);
const cases = (await buildCases(tokens)).filter((c) => !c.serverOnly);
const send = async (req) => (await handle(req)) ?? new Response('no such route', { status: 404 });
const counts = await runCases('chromium', cases, 'http://app.local', send);
console.log(`chromium: ${counts.passed} passed, ${counts.failed} failed`);
globalThis.__noFakes = counts;
