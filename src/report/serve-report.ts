import { existsSync, statSync, unwatchFile, watchFile } from "node:fs";
import { join, resolve } from "node:path";
import { message } from "../exits/errors.js";
import { printOut } from "../exits/out.js";
import type { ReportData } from "./report-data.js";
import { startViewerServer, type ViewerServer } from "./live-server.js";
import { readReport } from "./read-report.js";
import { openPage } from "./show.js";
import { viewerHtml } from "./viewer-html.js";

/**
 * `tooltrace show --serve <report>`: the saved report served on 127.0.0.1 like the watch session's live viewer
 * (same page, same guards), printing its URL; the open page reloads its data when the report's file changes
 * (a later run writing the same folder). Reruns are refused: there is no Vitest behind it. Serves until the
 * process ends; `close()` stops it.
 */
export async function serveReport(target: string, open = true): Promise<ViewerServer> {
  let data: ReportData = readReport(target);
  const server = await startViewerServer({
    page: (token) => viewerHtml(data, { token, rerun: false }),
    snapshot: () => data,
    keepAlive: true,
  });
  const path = resolve(target);
  const file = existsSync(path) && statSync(path).isDirectory() ? join(path, "index.html") : path;
  const reload = () => {
    try {
      data = readReport(target);
      server.push("report", data);
    } catch {
      // A report half written, or gone: the page keeps what it shows until the next change.
    }
  };
  watchFile(file, { interval: 300, persistent: false }, reload);
  printOut("command output", message(`serving ${target} at ${server.url} (Ctrl-C stops it)`), "stdout");
  if (open) openPage(server.url);
  return {
    url: server.url,
    push: server.push,
    pushJson: server.pushJson,
    serve: server.serve,
    close() {
      unwatchFile(file, reload);
      return server.close();
    },
  };
}
