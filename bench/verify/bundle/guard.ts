// The route guard's Worker entry as wrangler.toml's `main` names it (src/worker/index.ts):
// what a one-issuer inline-key HS256 config uploads today (GUARD_CONFIG is read at run
// time, so the bundle is the same for every config; bench/verify/bundle-size.ts also
// prints the part a split build would load first).
export { default } from '../../../src/worker/index.ts';
