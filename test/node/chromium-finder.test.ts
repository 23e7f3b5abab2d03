// The browser corpus's Chromium finder (test/runtimes/chromium.mjs): where it looks, and
// that a Chromium that is missing, not executable or failing to start becomes "not run"
// with a reason (never a throw, never a passed run). The launcher here is playwright's,
// as in test/runtimes/run-browser.mjs.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumCandidates, installHint, launchChromium } from '../runtimes/chromium.mjs';

const dir = mkdtempSync(join(tmpdir(), 'edgejwt-chromium-finder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const launch = (executablePath: string) => chromium.launch({ executablePath, headless: true, timeout: 30_000 });

describe('chromium_candidates_follow_the_readme', () => {
  it('takes CHROMIUM_PATH alone when it is set', () => {
    expect(chromiumCandidates({ CHROMIUM_PATH: '/opt/c/chrome' }, 'linux')).toEqual(['/opt/c/chrome']);
  });
  it('tries the Debian, Ubuntu, Chrome and snap paths on Linux, Debian first', () => {
    expect(chromiumCandidates({}, 'linux')).toEqual([
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome',
      '/snap/bin/chromium',
    ]);
  });
  it('tries Chrome then Chromium in /Applications on macOS', () => {
    expect(chromiumCandidates({}, 'darwin')).toEqual([
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
    ]);
  });
  it("tries Chrome under Program Files and the user's LocalAppData on Windows", () => {
    const env = { PROGRAMFILES: 'C:/PF', 'PROGRAMFILES(X86)': 'C:/PF86', LOCALAPPDATA: 'C:/L' };
    const found = chromiumCandidates(env, 'win32');
    expect(found.map((p) => p.replace(/\\/g, '/'))).toEqual([
      'C:/PF/Google/Chrome/Application/chrome.exe',
      'C:/PF86/Google/Chrome/Application/chrome.exe',
      'C:/L/Google/Chrome/Application/chrome.exe',
    ]);
  });
  it('has an install line for each platform it searches', () => {
    for (const platform of ['linux', 'darwin', 'win32']) expect(installHint(platform)).toMatch(/install/);
  });
});

describe('chromium_that_cannot_launch_is_not_run', () => {
  it('reports a missing executable as not run, with its path', async () => {
    const missing = join(dir, 'no-such-chromium');
    const r = await launchChromium([missing], launch);
    expect(r.browser).toBeUndefined();
    expect(r.notRun).toEqual([`${missing}: not found`]);
  });
  it.skipIf(process.platform === 'win32')('reports a file that is not executable as not run', async () => {
    const file = join(dir, 'not-executable');
    writeFileSync(file, '#!/bin/sh\nexit 0\n');
    chmodSync(file, 0o644);
    const r = await launchChromium([file], launch);
    expect(r.notRun).toEqual([`${file}: not executable`]);
  });
  it.skipIf(process.platform === 'win32')('reports an executable that exits 1 as failed to start', async () => {
    const script = join(dir, 'exits-1');
    writeFileSync(script, '#!/bin/sh\nexit 1\n');
    chmodSync(script, 0o755);
    const r = await launchChromium([script], launch);
    expect(r.browser).toBeUndefined();
    expect(r.notRun).toHaveLength(1);
    expect(r.notRun![0]!.startsWith(`${script}: failed to start (`)).toBe(true);
  });
  it('goes on to the next candidate after one that cannot launch, and keeps every reason', async () => {
    const missing = join(dir, 'missing-2');
    const r = await launchChromium([missing, join(dir, 'missing-3')], async () => 'browser');
    expect(r.notRun).toEqual([`${missing}: not found`, `${join(dir, 'missing-3')}: not found`]);
    const node = process.execPath; // an executable that exists: the fake launcher "starts" it
    const ok = await launchChromium([missing, node], async (p) => `browser at ${p}`);
    expect(ok).toEqual({ browser: `browser at ${node}`, path: node });
  });
});
