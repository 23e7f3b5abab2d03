// A fake identity provider on 127.0.0.1 for the guard's discovery and recipe
// tests: a plain HTTP server whose documents (discovery, JWKS) the tests put in
// place over loopback, so the guard fetches them through a real socket exactly
// as from a real IdP. Started by the Vitest globalSetup (global-setup.ts).
//
//   PUT  /__set?path=/p   body {status, headers, body}  -> what GET /p answers from now on
//   GET  /__hits?path=/p                               -> {"hits": n}
//   any other GET                                      -> the document set for its path, else 404

import { createServer, type Server } from 'node:http';

interface Doc {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function startFakeIdp(): Promise<{ server: Server; port: number }> {
  const docs = new Map<string, Doc>();
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/__set' && req.method === 'PUT') {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString('utf8')));
      req.on('end', () => {
        const doc = JSON.parse(data) as Partial<Doc> & { body: unknown };
        docs.set(url.searchParams.get('path')!, {
          status: doc.status ?? 200,
          headers: { 'content-type': 'application/json', ...doc.headers },
          body: typeof doc.body === 'string' ? doc.body : JSON.stringify(doc.body),
        });
        res.writeHead(204).end();
      });
      return;
    }
    if (url.pathname === '/__hits') {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ hits: hits.get(url.searchParams.get('path')!) ?? 0 }));
      return;
    }
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const doc = docs.get(url.pathname);
    if (doc === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(doc.status, doc.headers).end(doc.body);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, port: typeof addr === 'object' && addr !== null ? addr.port : 0 });
    });
  });
}
