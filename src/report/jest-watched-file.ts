import { extname, relative, sep } from "node:path";
import { message } from "../exits/errors.js";

/** The part of Jest's project config that says which files its watch mode follows. */
export interface JestWatchConfig {
  readonly rootDir?: string;
  readonly roots?: readonly string[];
  readonly moduleFileExtensions?: readonly string[];
  readonly watchPathIgnorePatterns?: readonly string[];
}

const JEST_EXTENSIONS = ["js", "mjs", "cjs", "jsx", "ts", "tsx", "json", "node"];

/**
 * Whether Jest's watch mode reruns tests when `file` changes: a file of a module extension under one of the
 * project's roots that no `watchPathIgnorePatterns` entry matches (`--watchAll` then reruns the whole suite).
 */
export function watchedByJest(file: string, config: JestWatchConfig): boolean {
  if (!(config.moduleFileExtensions ?? JEST_EXTENSIONS).includes(extname(file).slice(1))) return false;
  const roots = config.roots ?? [config.rootDir ?? process.cwd()];
  if (!roots.some((root) => file.startsWith(root.endsWith(sep) ? root : root + sep))) return false;
  return !(config.watchPathIgnorePatterns ?? []).some((pattern) => new RegExp(pattern).test(file));
}

/**
 * When Jest's watch mode follows the JSON report `file` (so that each write would start a rerun): the message
 * saying it is left out of the watch session, and how to keep it; else `undefined`.
 */
export function watchedJsonMessage(file: string, config: JestWatchConfig): string | undefined {
  if (!watchedByJest(file, config)) return undefined;
  const pattern = JSON.stringify(
    `<rootDir>/${relative(config.rootDir ?? process.cwd(), file)
      .split(sep)
      .join("/")}`,
  );
  return message(
    `the JSON report ${relative(process.cwd(), file)} is not written in this watch session: Jest watches it, and each write would start a rerun`,
    `add \`watchPathIgnorePatterns: [${pattern}]\` to the Jest config, or give the reporter's \`json\` a file outside the project's roots`,
  );
}
