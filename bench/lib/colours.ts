// One colour per library, the same in every chart: a reader who learned "jose is
// blue" in one chart must not find it orange in the next. edgejwt's series are
// warm (red-orange for the headline path, lighter for its variants), peers cool
// or muted, the bare primitives grey. A series with no colour here is a bug in
// the chart code (it throws), not something to colour at random.

const COLOURS: Record<string, string> = {
  edgejwt: '#d9480f',
  'edgejwt verifySync': '#d9480f',
  'edgejwt guard': '#d9480f',
  'edgejwt guard, only its stages': '#e8590c',
  'edgejwt verify (async)': '#f08c00',
  'edgejwt verify': '#f08c00',
  'edgejwt library only': '#f08c00',
  'edgejwt guard (variant)': '#fcc419',
  jose: '#1971c2',
  'jose guard': '#1971c2',
  'fast-jwt': '#2b8a3e',
  jsonwebtoken: '#7048e8',
  'hono/jwt': '#c2255c',
  '@tsndr/cloudflare-worker-jwt': '#0c8599',
  'node:crypto (bare)': '#495057',
  'crypto.subtle (bare)': '#adb5bd',
  'no-op Worker': '#868e96',
};

/** The fixed colour of a chart series (a library, or one of edgejwt's paths). */
export function colourOf(series: string): string {
  const c = COLOURS[series];
  if (c === undefined) throw new Error(`no fixed colour for chart series "${series}": add it to bench/lib/colours.ts`);
  return c;
}
