// The names in a Headers list, walked with its iterator: unlike forEach it can stop
// early and needs no callback per request. The root tsconfig's DOM lib leaves out
// DOM.Iterable, so the iterator is typed here once.

/**
 * The header names of `headers`, lower case, as `Headers.keys()` yields them.
 *
 * @example
 * for (const name of headerNames(request.headers)) if (name.startsWith('x-')) console.log(name);
 */
export function headerNames(headers: Headers): IterableIterator<string> {
  return (headers as Headers & { keys(): IterableIterator<string> }).keys();
}
