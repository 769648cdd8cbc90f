#!/usr/bin/env node
/**
 * `npx tooltrace init`: the plugin in the project's Vitest config and a first eval.
 * `npx tooltrace show <report folder | report.json | turn JSON> [--no-open]`: prints the viewer page's path and opens it.
 */
import { init } from "../init/init.js";
import { show } from "../report/show.js";

const USAGE = "usage: tooltrace init\n       tooltrace show <report folder | report.json | turn JSON> [--no-open]\n";
const [command, target, ...flags] = process.argv.slice(2);
try {
  if (command === "init") {
    const report = init(process.cwd());
    process.stdout.write(`${report.lines.join("\n")}\n`);
    if (!report.ok) process.exitCode = 1;
  } else if (command === "show" && target !== undefined) {
    process.stdout.write(`${show(target, !flags.includes("--no-open"))}\n`);
  } else {
    process.stderr.write(USAGE);
    process.exitCode = 2;
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
