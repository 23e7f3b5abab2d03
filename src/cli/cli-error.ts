// Exit codes of the `edgejwt` command and the one error type that carries them.

/** `edgejwt` exit codes: 0 ok, 1 the configuration is invalid, 2 usage or I/O (no file, unreadable, no Wrangler). */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A place in a file, 1-based as editors count. */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

/**
 * An error the command reports and exits with; printed as `file:line:column: message`
 * when it knows where.
 *
 * @example
 * throw new CliError(EXIT.invalid, 'GUARD_CONFIG is not valid JSON', { file: 'wrangler.toml', line: 9, column: 3 });
 */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    readonly at?: SourcePosition,
  ) {
    super(message);
    this.name = 'CliError';
  }

  /** The line the command prints. */
  override toString(): string {
    return this.at === undefined ? this.message : `${formatPosition(this.at)}: ${this.message}`;
  }
}

/**
 * `file:line:column`, the form editors and terminals turn into a link.
 *
 * @example
 * formatPosition({ file: 'wrangler.toml', line: 3, column: 1 }); // 'wrangler.toml:3:1'
 */
export function formatPosition(at: SourcePosition): string {
  return `${at.file}:${at.line}:${at.column}`;
}
