import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { PREFIX } from "../exits/errors.js";
import { printOut, writeOut } from "../exits/out.js";
import { readReport } from "./read-report.js";
import { viewerHtml } from "./viewer-html.js";

/**
 * `tooltrace show <report folder | index.html | report JSON | turn JSON>`: the viewer's page for it (a report's
 * own, or one made in a temporary folder), opened in the default browser unless `open` is false. Returns its path.
 */
export function show(target: string, open = true): string {
  const page = ownPage(target) ?? pageFor(target);
  if (open) openPage(page);
  return page;
}

/** A run's own viewer page, when `target` is a report folder or its page. */
export function ownPage(target: string): string | undefined {
  const path = resolve(target);
  const page = existsSync(path) && statSync(path).isDirectory() ? join(path, "index.html") : path.endsWith(".html") ? path : undefined;
  return page !== undefined && existsSync(page) ? page : undefined;
}

/**
 * Opens a page in the default browser (never in CI). Where none can be opened (no display, no opener), says so
 * on stderr with what to do instead: the page's path is printed either way.
 */
export function openPage(page: string): void {
  if (process.env.CI !== undefined) return;
  const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const headless = process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  const cannot = (why: string) =>
    printOut(
      "command output",
      page.startsWith("http://")
        ? `${PREFIX} no browser could be opened here (${why}): open ${page} in a browser on this machine (it is served to this machine only).`
        : `${PREFIX} no browser could be opened here (${why}): open ${page} in a browser on a machine with a display, or copy the page there (it is one self-contained file). --no-open skips this.`,
      "stderr",
    );
  if (headless) cannot("no display: DISPLAY and WAYLAND_DISPLAY are unset");
  else if (!onPath(opener)) cannot(`\`${opener}\` is not installed`);
  else
    spawn(opener, [page], { detached: true, stdio: "ignore" })
      .on("error", (error) => cannot(error.message))
      .unref();
}

function onPath(command: string): boolean {
  const extensions = process.platform === "win32" ? [".exe", ".cmd", ""] : [""];
  return (process.env.PATH ?? "")
    .split(delimiter)
    .some((folder) => folder !== "" && extensions.some((extension) => existsSync(join(folder, command + extension))));
}

/** A page for a JSON file (a whole report, or one turn): written in a temporary folder. */
function pageFor(target: string): string {
  const data = readReport(target);
  const page = join(mkdtempSync(join(tmpdir(), "tooltrace-show-")), "index.html");
  writeOut("viewer page", page, viewerHtml(data));
  return page;
}
