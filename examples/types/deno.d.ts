// Only for `npm run typecheck` (examples/tsconfig.json): the two Deno globals the
// Deno example uses. Deno itself brings the real ones.
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number },
    handler: (request: Request) => Response | Promise<Response>,
  ): unknown;
};
