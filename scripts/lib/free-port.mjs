// A TCP port free on 127.0.0.1 at the moment of asking, for a server a test starts.
import { createServer } from 'node:net';

/**
 * Resolves to a port nobody listens on (the OS picks it; closed again at once).
 *
 * @example
 * const port = await freePort(); // then: wrangler dev --port ${port}
 */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}
