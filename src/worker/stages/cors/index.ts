// The CORS stage (`cors`): an allowed preflight answered here (it never carries a token), the
// CORS headers on every answer of the stages after it, and `Vary: Origin` on a fault (cors.ts).

import { answered } from '../../context.js';
import type { GuardStage } from '../../stage.js';
import { allowedOrigin, isPreflight, parseCors, preflightResponse, withCors } from './cors.js';
import { corsSection } from './section.js';

/**
 * The CORS stage (`cors`).
 *
 * @example
 * const guard = createGuard(config, { stages: [cors] });
 */
export const cors: GuardStage = {
  name: 'cors',
  order: 50,
  section: { key: corsSection, after: 'jwks', parse: parseCors },
  build: (b) => {
    const c = corsSection.of(b.config);
    if (c === undefined) return undefined;
    const { observe } = b;
    return {
      serve: (cx) => {
        // A preflight never carries credentials (Fetch standard): answer it here for allowed origins.
        const origin = allowedOrigin(c, cx.request);
        if (origin === undefined || !isPreflight(cx.request)) return undefined;
        observe.count('preflight');
        observe.point('preflight');
        return answered(preflightResponse(c, origin));
      },
      answer: (cx, res) => withCors(res, c, allowedOrigin(c, cx.request)),
      fault: (res) => withCors(res, c, undefined),
    };
  },
};
