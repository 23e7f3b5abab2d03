// A minimal Chrome DevTools Protocol client over Node's WebSocket, for the benches that
// profile inside workerd through its inspector (cold-profile.ts, guard-profile-workerd.ts).

/** Connect to an inspector's WebSocket; `send` resolves with a command's result. */
export async function connect(
  url: string,
): Promise<{ send(method: string, params?: object): Promise<unknown>; close(): void }> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  let next = 0;
  const pending = new Map<number, (m: { result?: unknown; error?: { message: string } }) => void>();
  ws.addEventListener('message', (e) => {
    const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: { message: string } };
    // workerd answers some commands without a `result`; the id is what matters.
    if (m.id !== undefined) pending.get(m.id)?.(m);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        const id = ++next;
        pending.set(id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)));
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}
