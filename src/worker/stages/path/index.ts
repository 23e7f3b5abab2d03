// The path stage: one canonical path and its readings decide everything after it (path.ts;
// 400 for a path that cannot be read one way, with no log line). Then the reserved paths:
// another spelling of admin.path, revocation.path or the resource metadata path is a 404,
// never forwarded (reserved-paths.ts, brought by the stage that reserves the path).

import { answered } from '../../context.js';
import type { GuardStage } from '../../stage.js';
import { canonicalPath } from './path.js';
import type { reservedCheck } from './reserved-paths.js';
import { adminSection } from '../admin/section.js';
import { resourceSection } from '../resource/section.js';
import { revocationSection } from '../revocation/section.js';

/** A stage that reserves a path (admin, revocation, resource) and brings the check of its other spellings. */
export interface ReservingStage extends GuardStage {
  reservedCheck: typeof reservedCheck;
}

/**
 * The path stage (always in the chain): sets `cx.path`.
 *
 * @example
 * const stages = [path, reservedPaths, route];
 */
export const path: GuardStage = {
  name: 'path',
  order: 60,
  build: (b) => {
    const { config, observe } = b;
    const escapedSlashes = config.paths.escapedSlashes;
    return {
      request: (cx) => {
        const p = canonicalPath(cx.url.pathname, escapedSlashes);
        if (!p.ok) return answered(observe.refusePath());
        cx.path = p;
        return undefined;
      },
    };
  },
};

/**
 * The reserved-path stage (always in the chain; it answers only when the config has a reserved path, with the
 * check the stage that reserves it brings, so a guard without one bundles none of it).
 *
 * @example
 * const stages = [path, reservedPaths];
 */
export const reservedPaths: GuardStage = {
  name: 'reservedPaths',
  order: 70,
  build: (b) => {
    const c = b.config;
    // Each reserved path through its owner's section; the first owner set brings the check.
    const owner = [adminSection, revocationSection, resourceSection].find((s) => s.of(c) !== undefined)?.key;
    if (owner === undefined) return undefined;
    const view = {
      admin: adminSection.of(c),
      revocation: revocationSection.of(c),
      resource: resourceSection.of(c),
      paths: c.paths,
    };
    const check = b.use<ReservingStage>(owner, owner).reservedCheck(view);
    if (check === undefined) return undefined;
    return {
      serve: (cx) => {
        const stop = check(cx.path!);
        return stop === undefined ? undefined : answered(stop);
      },
    };
  },
};
