// Where the browser corpus looks for Chromium (the README's "Prerequisites" lists the
// same places), and how a Chromium that cannot be launched becomes "not run" instead
// of a failure: a contributor without a browser still gets a green `npm test`, with a
// banner saying what did not run and the one line that installs it. CI (CI=true)
// treats "not run" as a failure (scripts/test-all.mjs, run-browser.mjs, test/no-fakes).
import { accessSync, constants, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The one line that installs a Chromium the finder looks for, per platform. */
export const INSTALL_HINTS = {
  linux: 'sudo apt-get install chromium   (Debian; Ubuntu: sudo snap install chromium)',
  darwin: 'brew install --cask google-chrome   (or Chromium.app; or set CHROMIUM_PATH)',
  win32: 'winget install Google.Chrome   (or set CHROMIUM_PATH to chrome.exe)',
};

/** The install line for `platform`, or the CHROMIUM_PATH advice where we know none. */
export function installHint(platform = process.platform) {
  return INSTALL_HINTS[platform] ?? 'install Chromium or Chrome and set CHROMIUM_PATH to its executable';
}

/**
 * The executables to try, in order: `CHROMIUM_PATH` alone when it is set (a path the
 * user named is never silently replaced by another browser), else the usual install
 * paths of the platform.
 * @example chromiumCandidates({ CHROMIUM_PATH: '/opt/chrome/chrome' }, 'linux') // ['/opt/chrome/chrome']
 */
export function chromiumCandidates(env = process.env, platform = process.platform) {
  if (env.CHROMIUM_PATH) return [env.CHROMIUM_PATH];
  if (platform === 'darwin') {
    return [
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
    ];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(Boolean);
    return roots.map((dir) => join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe'));
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/snap/bin/chromium'];
}

/** Why `path` cannot be an executable to start, or undefined when it may be. */
export function unusableReason(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return `${path}: not found`;
  }
  if (!stat.isFile()) return `${path}: not a file`;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return `${path}: not executable`;
  }
  return undefined;
}

/**
 * Launches the first candidate that starts. `launch(path)` starts one (playwright's
 * launchPersistentContext in run-browser.mjs) and throws when it cannot.
 * Resolves to `{ browser, path }`, or to `{ notRun }` with one reason per candidate.
 * @example const r = await launchChromium(chromiumCandidates(), (p) => chromium.launch({ executablePath: p }));
 */
export async function launchChromium(candidates, launch) {
  const reasons = [];
  for (const path of candidates) {
    const unusable = unusableReason(path);
    if (unusable) {
      reasons.push(unusable);
      continue;
    }
    try {
      return { browser: await launch(path), path };
    } catch (e) {
      // Playwright's message carries the browser's own log; its first line says what failed.
      const first = (e instanceof Error ? e.message : String(e)).split('\n')[0];
      reasons.push(`${path}: failed to start (${first})`);
    }
  }
  return { notRun: reasons.length > 0 ? reasons : ['no candidate path'] };
}

/**
 * Starts the first Chromium of `chromiumCandidates()` headless, through playwright-core, with a
 * fresh profile. Resolves to `{ browser, path, close }` (`close` also removes the profile), or to
 * `{ notRun }` as launchChromium does.
 * @example const c = await startHeadlessChromium(); if (!c.notRun) try { … } finally { await c.close(); }
 */
export async function startHeadlessChromium() {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'edgejwt-chromium-'));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  // A persistent context is how playwright takes a fresh --user-data-dir.
  const launch = (executablePath) =>
    chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
      timeout: 60_000,
    });
  const launched = await launchChromium(chromiumCandidates(), launch);
  if (launched.notRun) {
    removeProfile();
    return launched;
  }
  const close = async () => {
    await launched.browser.close().catch(() => {});
    removeProfile();
  };
  return { ...launched, close };
}
