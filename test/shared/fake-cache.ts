// An in-memory Cache API for tests, close to the spec where the key-set tier relies on it:
// entries keyed by a GET Request's URL, `put` refuses other methods and 206 answers,
// `match` returns a fresh Response copy, and an entry expires after its Cache-Control
// max-age (on an injected clock); a response without max-age or with no-store is not kept.

export class FakeCache {
  readonly #entries = new Map<string, { body: string; headers: [string, string][]; status: number; expires: number }>();
  readonly #now: () => number;
  reads = 0;
  writes = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async match(request: Request | string): Promise<Response | undefined> {
    this.reads++;
    const req = typeof request === 'string' ? new Request(request) : request;
    if (req.method !== 'GET') return undefined;
    const e = this.#entries.get(req.url);
    if (e === undefined) return undefined;
    if (this.#now() >= e.expires) {
      this.#entries.delete(req.url);
      return undefined;
    }
    return new Response(e.body, { status: e.status, headers: e.headers });
  }

  async put(request: Request | string, response: Response): Promise<void> {
    this.writes++;
    const req = typeof request === 'string' ? new Request(request) : request;
    if (req.method !== 'GET') throw new TypeError('Cache.put: only GET requests');
    if (response.status === 206) throw new TypeError('Cache.put: partial response');
    const cc = response.headers.get('cache-control') ?? '';
    const m = /(?:^|,)\s*(?:s-)?max-age=(\d+)/i.exec(cc);
    const body = await response.text();
    if (m === null || /no-store/i.test(cc)) return;
    const expires = this.#now() + Number(m[1]) * 1000;
    const headers: [string, string][] = [];
    response.headers.forEach((v, k) => headers.push([k, v]));
    this.#entries.set(req.url, { body, headers, status: response.status, expires });
  }

  async delete(request: Request | string): Promise<boolean> {
    const req = typeof request === 'string' ? new Request(request) : request;
    return this.#entries.delete(req.url);
  }

  /** The stored URLs (tests tamper with entries through them). */
  keys(): string[] {
    return [...this.#entries.keys()];
  }

  /** Replace an entry's body as a foreign writer would. */
  tamper(url: string, edit: (body: string) => string): void {
    const e = this.#entries.get(url);
    if (e !== undefined) e.body = edit(e.body);
  }
}
