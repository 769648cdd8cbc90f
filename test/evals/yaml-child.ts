import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { packageFile } from "../fixtures/versions.js";

/** The fixture project the YAML eval tests run Vitest in: its agent module is `adapter: anthropic`. */
export const yamlProject = join(import.meta.dirname, "../fixtures/yaml-project");

/** A child Vitest run of the fixture project, as a user's terminal shows it (no colours): its exit code and output. */
export async function vitestInYamlProject(env: Record<string, string>, ...args: string[]) {
  return promisify(execFile)(
    process.execPath,
    [packageFile("vitest", "vitest.mjs"), "run", "--config", join(yamlProject, "vitest.config.ts"), ...args],
    {
      env: { ...process.env, NO_COLOR: "1", ...env },
    },
  ).then(
    (ok) => ({ code: 0, output: ok.stdout + ok.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
  );
}
