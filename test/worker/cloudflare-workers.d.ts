// The one piece of `cloudflare:workers` these tests use, typed without pulling
// the full Workers typings into the shared tsconfig (which targets DOM + Node).
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>;
}
