/**
 * What `pick` finds in the last line of a CLI's JSON-lines output that has it (Codex's `--json`, OpenCode's
 * `--format json`): the final answer. Lines that are not JSON objects are skipped; `""` when none has it.
 */
export function lastFromJsonLines(stdout: string, pick: (event: Record<string, unknown>) => string | undefined): string {
  let found = "";
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const value = pick(JSON.parse(line) as Record<string, unknown>);
    if (value !== undefined) found = value;
  }
  return found;
}
