// The one place that holds the runtime's fetch. workerd's fetch throws "Illegal
// invocation" when it is called as a method of anything but the global object, and
// `options.fetch(url)` is such a call: every fetch the library and the guard make
// goes through a function made here, which calls the fetch as a plain function.

/**
 * A fetch that calls `given` (else the runtime's `globalThis.fetch`, read at each call)
 * as a plain function, whatever object the result is stored on.
 *
 * @example
 * const o = { fetch: plainFetch(undefined) };
 * await o.fetch('https://issuer.example/jwks'); // globalThis.fetch, called unbound
 */
export function plainFetch(given: typeof fetch | undefined): typeof fetch {
  return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const send = given ?? globalThis.fetch;
    return send(input, init);
  };
}
