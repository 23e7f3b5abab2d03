// The one export of the Workers runtime module the guard entry uses, typed here so
// the build needs no Workers type package.
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>;
}
