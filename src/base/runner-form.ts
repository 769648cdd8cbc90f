import { runFlags } from "./run-flags.js";

/** How the runner in use spells the run's tooltrace options, for the messages that name one. */
export interface RunnerForm {
  /** One option with its value, as the config writes it: `tooltrace({ live: true })`. */
  option(field: string): string;
  /** The option's name in an error about its value: `tooltrace({ allowHosts })`, `globals.tooltrace.allowHosts`. */
  name(option: string): string;
  /** Where the options are written: `tooltrace()`, `globals.tooltrace`. */
  readonly home: string;
  /** The file they are written in: `the Vitest config`, `the Jest config`. */
  readonly config: string;
}

const VITEST: RunnerForm = {
  option: (field) => `tooltrace({ ${field} })`,
  name: (option) => `tooltrace({ ${option} })`,
  home: "`tooltrace()`",
  config: "the Vitest config",
};

const JEST: RunnerForm = {
  option: (field) => `globals: { tooltrace: { ${field} } }`,
  name: (option) => `globals.tooltrace.${option}`,
  home: "`globals.tooltrace`",
  config: "the Jest config",
};

/**
 * The form of the runner whose setup installed tooltrace (`runFlags.setup`); undefined in a plain script,
 * which has no run-wide options (a session's own, or an environment variable, is its advice).
 */
export function runnerForm(): RunnerForm | undefined {
  return runFlags.setup === "jest" ? JEST : runFlags.setup === "vitest" ? VITEST : undefined;
}

/** The name of a run option in an error about its value: the runner's form, the plugin's outside any runner. */
export function runOptionName(option: string): string {
  return (runnerForm() ?? VITEST).name(option);
}
