// Types for processes.mjs, for the runners written in TypeScript (mcp.ts).
import type { ChildProcess } from 'node:child_process';

export interface Started extends ChildProcess {
  readonly done: Promise<{ code: number; output: string }>;
  output(): string;
}
export const root: string;
export const env: Record<string, string | undefined>;
export const children: Set<Started>;
export function bin(name: string): string;
export function freePort(): Promise<number>;
export function start(cmd: string, args: string[], opts?: Record<string, unknown>): Started;
export function stop(child: Started): void;
export function wranglerDev(
  cwd: string,
  vars: Record<string, string>,
  port?: number,
): Promise<{ child: Started; url: string }>;
