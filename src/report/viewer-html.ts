import { type ReportData, reportCounts } from "./report-data.js";
import { VIEWER_SCRIPT } from "./viewer-script.js";
import { LIVE_SCRIPT, LIVE_STYLE } from "./viewer-live.js";
import { SINCE_SCRIPT, SINCE_STYLE } from "./viewer-since.js";
import { TRIALS_SCRIPT, TRIALS_STYLE } from "./viewer-trials.js";
import { escapeHtml } from "../exits/escape.js";

const STYLE = `
:root { --bg: #fbfbfc; --panel: #fff; --line: #e3e5e8; --text: #1f2328; --dim: #656d76; --ok: #1a7f37; --bad: #cf222e; --tool: #8250df; --model: #0969da; --http: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--text); background: var(--bg); display: grid; grid-template-columns: 320px 1fr; height: 100vh; }
aside { border-right: 1px solid var(--line); background: var(--panel); display: flex; flex-direction: column; min-height: 0; }
aside header { padding: 12px; border-bottom: 1px solid var(--line); }
aside h1 { font-size: 14px; margin: 0 0 8px; }
#search { width: 100%; padding: 6px 8px; border: 1px solid var(--line); border-radius: 6px; }
.filters { margin-top: 8px; display: flex; gap: 6px; align-items: center; }
.filters button { border: 1px solid var(--line); background: none; border-radius: 12px; padding: 2px 10px; cursor: pointer; }
.filters button.on { background: var(--text); color: #fff; }
#count { color: var(--dim); margin-left: auto; }
#tests { list-style: none; margin: 0; padding: 0; overflow: auto; }
.file { padding: 8px 12px 4px; color: var(--dim); font-size: 11px; font-weight: 600; border-bottom: 1px solid var(--line); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.filters select { border: 1px solid var(--line); border-radius: 6px; padding: 2px 4px; background: none; }
.call.nested { margin-left: 40px; } .call .via { color: var(--dim); font-size: 11px; }
.test { padding: 6px 12px; cursor: pointer; display: flex; gap: 8px; border-bottom: 1px solid #f2f3f5; }
.test:hover, .test.selected { background: #eef3fb; }
.test .mark { width: 1em; font-weight: 700; }
.test.passed .mark { color: var(--ok); } .test.failed .mark { color: var(--bad); }
main { overflow: auto; padding: 16px 24px; min-width: 0; }
.header h1 { font-size: 18px; margin: 0; }
.header .where { color: var(--dim); margin: 4px 0 12px; }
.header.failed h1::before { content: "\\2717 "; color: var(--bad); } .header.passed h1::before { content: "\\2713 "; color: var(--ok); }
pre { margin: 0; white-space: pre-wrap; word-break: break-word; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
pre.error { background: #ffebe9; border: 1px solid #ffcecb; padding: 10px; border-radius: 6px; margin-bottom: 12px; }
.session { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin-bottom: 16px; }
.session h2 { font-size: 14px; margin: 0 0 8px; }
.violation { color: var(--bad); margin-bottom: 6px; } .unused { color: var(--dim); margin-bottom: 6px; }
.turn { border-top: 1px solid var(--line); padding-top: 10px; margin-top: 10px; }
.bubble { padding: 8px 12px; border-radius: 10px; margin: 6px 0; max-width: 80%; white-space: pre-wrap; }
.bubble.user { background: #ddf4ff; margin-left: auto; } .bubble.agent { background: #f6f8fa; } .bubble.failed { background: #ffebe9; }
.call-group { content-visibility: auto; }
.call { border: 1px solid var(--line); border-left-width: 4px; border-radius: 6px; margin: 4px 0 4px 16px; background: #fff; }
.call.tool { border-left-color: var(--tool); } .call.model { border-left-color: var(--model); } .call.http { border-left-color: var(--http); }
.call.failed, .call.rejected { background: #fff8f8; }
.call .head { display: flex; gap: 10px; padding: 4px 8px; cursor: pointer; align-items: baseline; }
.call .kind { text-transform: uppercase; font-size: 10px; color: var(--dim); width: 3.5em; }
.call .cname { font-weight: 600; } .call .status { color: var(--dim); } .call .by { margin-left: auto; color: var(--dim); } .call .ms { color: var(--dim); width: 5em; text-align: right; }
.call .summary { padding: 0 8px 4px 4.7em; color: var(--dim); font-family: ui-monospace, monospace; font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.call.open { outline: 2px solid #0969da33; }
.details { padding: 6px 10px 10px 4.7em; border-top: 1px dashed var(--line); }
.details .label { color: var(--dim); margin-top: 6px; font-size: 11px; text-transform: uppercase; }
.usage { color: var(--dim); margin: 4px 0; }
.score { margin: 2px 0; font-size: 13px; } .score.pass { color: var(--ok); } .score.fail { color: var(--bad); }
.timeline { margin: 8px 0 4px; border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; background: #fff; }
.lane { display: grid; grid-template-columns: 220px 1fr; gap: 8px; align-items: center; height: 18px; }
.lane-name { color: var(--dim); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; font-size: 11px; }
.track { position: relative; height: 10px; background: #f6f8fa; border-radius: 3px; }
.bar { position: absolute; top: 0; height: 10px; border-radius: 3px; cursor: pointer; min-width: 2px; }
.bar.tool { background: var(--tool); } .bar.model { background: var(--model); } .bar.http { background: var(--http); }
.bar.failed, .bar.rejected { outline: 2px solid var(--bad); }
.timeline .canvas { width: 100%; height: auto; max-height: 400px; image-rendering: pixelated; cursor: pointer; }
.empty { color: var(--dim); }
.test .earlier { margin-left: auto; color: var(--dim); font-size: 11px; white-space: nowrap; }
.header .earlier { color: var(--dim); font-style: italic; margin: -8px 0 12px; }
#history { border-top: 1px solid var(--line); padding: 6px 12px; font-size: 12px; max-height: 30vh; overflow: auto; }
#history summary { cursor: pointer; color: var(--dim); font-weight: 600; }
#history ol { margin: 4px 0 0; padding-left: 18px; } #history li.failed { color: var(--bad); }
`;

/** Text safe inside `<script type="application/json">`: no `</script>`, no comment opener. */
function scriptSafe(json: string): string {
  return json
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * The report as one self-contained HTML page: styles, data and viewer inline, nothing fetched. Served live
 * (`live`: the server's token), the page also connects back to its own server for updates and reruns.
 */
export function viewerHtml(data: ReportData, live?: { readonly token: string; readonly rerun?: boolean }): string {
  const counts = reportCounts(data.tests);
  const files = counts.fileErrors === 0 ? "" : `, ${counts.fileErrors} ${counts.fileErrors === 1 ? "file" : "files"} with errors`;
  const title = `tooltrace: ${counts.passed} of ${counts.tests} passed${files}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'${live ? "; connect-src 'self'" : ""}">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${TRIALS_STYLE}${SINCE_STYLE}${live ? LIVE_STYLE : ""}</style>
</head>
<body>
<aside>
<header>
<h1>${escapeHtml(title)}</h1>
<input id="search" type="search" placeholder="Search tests and tools" autocomplete="off">
<div class="filters"><button data-filter="all" class="on">All</button><button data-filter="failed">Failed</button><span id="count"></span></div>
<div class="filters"><select id="filter-kind" aria-label="Kind"><option value="all">every kind</option><option value="tool">tool calls</option><option value="model">model calls</option><option value="http">HTTP</option></select><select id="filter-by" aria-label="Answered by"><option value="all">any answer</option><option value="stub">stub</option><option value="cassette">cassette</option><option value="middleware">middleware</option><option value="mock">mock model</option><option value="msw">MSW handler</option><option value="real">real</option><option value="fault">injected fault</option><option value="refused">refused</option></select><select id="filter-status" aria-label="Status"><option value="all">any status</option><option value="completed">completed</option><option value="failed">failed</option><option value="rejected">rejected</option><option value="pending">pending</option></select></div>
</header>
<ul id="tests"></ul>
<details id="history" hidden></details>
</aside>
<main id="main"></main>
<script type="application/json" id="tooltrace-data">${scriptSafe(JSON.stringify(data))}</script>
${live ? `<script type="application/json" id="tooltrace-live">${scriptSafe(JSON.stringify({ token: live.token, rerun: live.rerun !== false }))}</script>\n` : ""}<script>${TRIALS_SCRIPT}${SINCE_SCRIPT}${VIEWER_SCRIPT}${live ? LIVE_SCRIPT : ""}</script>
</body>
</html>
`;
}
