/** A subagent path as written (`"researcher/assistant"`, extra slashes ignored) as its parts. */
export function splitPath(path: string): string[] {
  return path.split("/").filter(Boolean);
}

export function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

/** Joins a path and a tool name as a stub rule names it: `researcher/list_tasks`. */
export function qualify(tool: string, path: readonly string[]): string {
  return path.length === 0 ? tool : `${path.join("/")}/${tool}`;
}
