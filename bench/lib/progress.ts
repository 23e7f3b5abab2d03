// A one-line progress display on stderr (rewritten in place on a terminal,
// one line per step otherwise) so long benches show where they are.
export interface Progress {
  (label: string): void;
  done(): void;
}

export function progress(title: string, total: number): Progress {
  const tty = process.stderr.isTTY === true;
  const t0 = Date.now();
  let i = 0;
  const show = (text: string, end: string) => process.stderr.write(`${tty ? '\r\x1b[2K' : ''}${text}${end}`);
  const step = ((label: string) => {
    i++;
    show(`[${title} ${i}/${total}] ${label}  (${((Date.now() - t0) / 1000).toFixed(0)} s)`, tty ? '' : '\n');
  }) as Progress;
  step.done = () => show(`[${title}] done in ${((Date.now() - t0) / 1000).toFixed(1)} s`, '\n');
  return step;
}
