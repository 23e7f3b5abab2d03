// Tables composed from other benches' results rather than measured again (no bench
// measures what another does): read a results JSON (the smoke copy in smoke mode),
// pick a row by name, and format a cell with its spread or its ratio to edgejwt.
// A ratio is only ever taken between two rows of the same results file (one run).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { formatNs, smoke, type Sample } from './harness.ts';

const resultsDir = join(fileURLToPath(new URL('..', import.meta.url)), smoke ? 'results/smoke' : 'results');

/** bench/results/<name>.json (results/smoke/ in smoke mode), or undefined when that bench has not run. */
export function readResult<T>(name: string): T | undefined {
  const f = join(resultsDir, `${name}.json`);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as T) : undefined;
}

export function row(rows: Sample[] | undefined, name: string): Sample | undefined {
  return rows?.find((r) => r.name === name);
}

/** The faster of several rows (e.g. jose with the key as bytes or as a CryptoKey). */
export function fastest(rows: Sample[] | undefined, names: string[]): Sample | undefined {
  const found = names.map((n) => row(rows, n)).filter((r): r is Sample => r !== undefined);
  return found.length ? found.reduce((a, b) => (a.medianNs < b.medianNs ? a : b)) : undefined;
}

/** edgejwt's cell: median and p25–p75. */
export function ownCell(s: Sample | undefined): string {
  return s ? `${formatNs(s.medianNs)} (${formatNs(s.p25Ns)}–${formatNs(s.p75Ns)})` : '—';
}

/** A peer's cell: median, p25–p75, and × edgejwt (peer ÷ edgejwt: > 1 means edgejwt is faster). */
export function peerCell(s: Sample | undefined, ours: Sample | undefined): string {
  if (s === undefined) return '—';
  const ratio = ours ? ` **${(s.medianNs / ours.medianNs).toFixed(2)}×**` : '';
  return `${formatNs(s.medianNs)} (${formatNs(s.p25Ns)}–${formatNs(s.p75Ns)})${ratio}`;
}

/** The date, machine and versions of a results file, on one line. */
export function envOf(e: Record<string, string> | undefined, packages: string[]): string {
  if (e === undefined) return 'not run';
  return `${e.date?.slice(0, 16).replace('T', ' ')} UTC · ${e.machine} · Node ${e.node} · ${packages
    .filter((p) => e[p])
    .map((p) => `${p} ${e[p]}`)
    .join(' · ')}`;
}
