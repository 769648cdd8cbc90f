import { execFileSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** What loading the edited config said: the plugin is in it, it is not, or the config could not be loaded here. */
export type ConfigCheck = "has the plugin" | "no plugin" | { readonly unloaded: string };

interface Vite {
  loadConfigFromFile(
    env: { command: "serve"; mode: string },
    file: string,
    root: string,
    logLevel?: "silent",
  ): Promise<{ readonly config: { readonly plugins?: readonly unknown[] } } | null>;
}

/**
 * Loads the project's Vitest config the way Vite does (with the project's own `vite`) and says whether the
 * plugin is among its plugins: the one proof that `init` edited its code, not a comment or a string.
 */
export async function checkConfig(folder: string, file: string): Promise<ConfigCheck> {
  let vite: Vite;
  try {
    const resolved = createRequire(join(folder, "package.json")).resolve("vite");
    vite = (await import(pathToFileURL(resolved).href)) as Vite;
  } catch {
    return { unloaded: "vite is not installed here yet" };
  }
  try {
    const loaded = await vite.loadConfigFromFile({ command: "serve", mode: "test" }, join(folder, file), folder, "silent");
    const plugins = (loaded?.config.plugins ?? []).flat(Number.POSITIVE_INFINITY) as { name?: unknown }[];
    return plugins.some((plugin) => plugin?.name === "tooltrace") ? "has the plugin" : "no plugin";
  } catch (error) {
    return { unloaded: (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "" };
  }
}

/** The project's own `jest/bin/jest.js`, when Jest is installed there. */
function jestBin(folder: string): string | undefined {
  try {
    return join(dirname(createRequire(join(folder, "package.json")).resolve("jest/package.json")), "bin", "jest.js");
  } catch {
    return undefined;
  }
}

/**
 * Whether the project's Jest runs `file` (a path under the project): its own `--listTests`, through its roots,
 * `testMatch` or `testRegex`, and ignore patterns. `undefined` when Jest could not say.
 */
export function jestRunsFile(folder: string, file: string): boolean | undefined {
  const jest = jestBin(folder);
  if (jest === undefined) return undefined;
  try {
    const listed = execFileSync(process.execPath, [jest, "--listTests", file], {
      cwd: folder,
      encoding: "utf8",
      stdio: "pipe",
      timeout: 60_000,
    });
    const wanted = join(folder, file);
    return listed.split("\n").some((line) => line.trim() !== "" && realOrSame(line.trim()) === realOrSame(wanted));
  } catch {
    return undefined;
  }
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Loads the project's Jest config the way Jest does (its own `jest --showConfig`, which also reads a TypeScript
 * config) and says whether tooltrace's setup file is in every project's `setupFilesAfterEnv`.
 */
export function checkJestConfig(folder: string): ConfigCheck {
  const jest = jestBin(folder);
  if (jest === undefined) return { unloaded: "jest is not installed here yet" };
  try {
    const shown = execFileSync(process.execPath, [jest, "--showConfig"], { cwd: folder, encoding: "utf8", stdio: "pipe", timeout: 60_000 });
    const { configs } = JSON.parse(shown) as { configs: { setupFilesAfterEnv?: string[] }[] };
    const has = configs.every((config) => (config.setupFilesAfterEnv ?? []).some((file) => /[/\\]tooltrace[/\\]/.test(file)));
    return has ? "has the plugin" : "no plugin";
  } catch (error) {
    const said = (error as { stderr?: string }).stderr?.trim() || (error instanceof Error ? error.message : String(error));
    return { unloaded: said.split("\n")[0] ?? "" };
  }
}
