// Types of ./chromium.mjs for the TypeScript tests (test/node/chromium-finder.test.ts).
export declare const INSTALL_HINTS: Record<'linux' | 'darwin' | 'win32', string>;
export declare function installHint(platform?: string): string;
export declare function chromiumCandidates(env?: Record<string, string | undefined>, platform?: string): string[];
export declare function unusableReason(path: string): string | undefined;
export declare function launchChromium<B>(
  candidates: string[],
  launch: (path: string) => Promise<B>,
): Promise<{ browser: B; path: string; notRun?: undefined } | { notRun: string[]; browser?: undefined }>;
