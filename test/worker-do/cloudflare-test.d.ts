// The pieces of `cloudflare:test` and `cloudflare:workers` these tests use, typed
// without the full Workers typings (the shared tsconfig targets DOM + Node).
declare module 'cloudflare:test' {
  export function runInDurableObject<R>(
    stub: unknown,
    callback: (instance: any, state: any) => R | Promise<R>,
  ): Promise<R>;
  export function runDurableObjectAlarm(stub: unknown): Promise<boolean>;
}
declare module 'cloudflare:workers' {
  /** The test Worker's own entrypoints (test/worker-do/entry.ts). */
  export const exports: { default: { fetch(input: string, init?: RequestInit): Promise<Response> } };
}
