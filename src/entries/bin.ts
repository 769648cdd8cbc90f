#!/usr/bin/env node
/** `npx tooltrace show <report folder | report.json | turn JSON> [--no-open]`: prints the viewer page's path and opens it. */
import { show } from "../report/show.js";

const [command, target, ...flags] = process.argv.slice(2);
if (command !== "show" || target === undefined) {
  process.stderr.write("usage: tooltrace show <report folder | report.json | turn JSON> [--no-open]\n");
  process.exit(2);
}
try {
  process.stdout.write(`${show(target, !flags.includes("--no-open"))}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
