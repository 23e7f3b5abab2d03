// The one error GUARD_CONFIG parsing throws, in a module of its own so that the
// parsers config.ts calls (origin-assertion.ts, service-origin.ts) can throw it
// without importing config.ts back (no import circle: architecture.md, "Import rules").

/**
 * A configuration mistake, naming the setting; the guard answers 500 with it in the log.
 *
 * @example
 * throw new ConfigError('origin.service', 'the service binding is missing');
 */
export class ConfigError extends Error {
  readonly setting: string;
  /** What is wrong, without the setting's name (fixed text, as the message). */
  readonly reason: string;
  constructor(setting: string, reason: string) {
    // Reasons are fixed text: configuration values (which may be secrets) never appear.
    super(setting === 'GUARD_CONFIG' ? `GUARD_CONFIG ${reason}` : `GUARD_CONFIG ${setting}: ${reason}`);
    this.name = 'ConfigError';
    this.setting = setting;
    this.reason = reason;
  }
}

/**
 * The error of a guard whose config uses a stage it was not given.
 *
 * @example
 * throw stageNotGiven('cors', 'cors');
 */
export function stageNotGiven(setting: string, stage: string): ConfigError {
  const hint = `import ${stage} from edgejwt/worker and pass it in stages`;
  return new ConfigError(setting, `needs the ${stage} stage, which this guard was not given (${hint})`);
}
