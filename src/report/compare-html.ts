import { pathToFileURL } from "node:url";
import type { ComparedTest, Comparison, StatusChange } from "./compare.js";
import { isChanged } from "./compare.js";
import { costChange, scoresChange } from "./compare-markdown.js";
import type { RateInterval } from "../base/pass-rate-interval.js";
import { escapeHtml } from "../exits/escape.js";
import { percent, signed } from "../base/percent.js";

/** Where each run's own viewer page is, to link a test to its conversation in either run. */
export interface ComparedPages {
  readonly baseline?: string;
  readonly current?: string;
}

const STYLE = `
:root { --bg: #fbfbfc; --panel: #fff; --line: #e3e5e8; --text: #1f2328; --dim: #656d76; --ok: #1a7f37; --bad: #cf222e; --model: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; padding: 20px 28px; font: 13px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--text); background: var(--bg); }
h1 { font-size: 18px; margin: 0 0 4px; } .counts { color: var(--dim); margin-bottom: 16px; }
.counts b { color: var(--text); } .counts .bad { color: var(--bad); } .counts .good { color: var(--ok); }
table { border-collapse: collapse; width: 100%; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 11px; color: var(--dim); font-weight: 600; }
tr.unchanged td { color: var(--dim); }
.status { font-weight: 600; white-space: nowrap; } .status.broken, .status.removed { color: var(--bad); }
.status.fixed, .status.added { color: var(--ok); }
.file { color: var(--dim); font-size: 11px; } a { color: var(--model); text-decoration: none; margin-right: 8px; font-size: 11px; }
.rates { width: 220px; } .rate { position: relative; height: 8px; margin: 4px 0; background: #f6f8fa; border-radius: 4px; }
.rate .ci { position: absolute; height: 8px; border-radius: 4px; opacity: 0.35; } .rate .dot { position: absolute; top: -2px; width: 3px; height: 12px; }
.rate.baseline .ci, .rate.baseline .dot { background: var(--dim); } .rate.current .ci, .rate.current .dot { background: var(--model); }
.rtext { font-size: 11px; color: var(--dim); } .rtext.significant { color: var(--bad); font-weight: 600; }
.rtext.significant.up { color: var(--ok); }
pre.diff { margin: 6px 0 0; padding: 8px; background: #f6f8fa; border-radius: 6px; font-size: 12px; white-space: pre-wrap; }
pre.diff .add { color: var(--ok); } pre.diff .del { color: var(--bad); } pre.diff .chg { color: #9a6700; }
.session { font-size: 11px; color: var(--dim); margin-top: 6px; }
`;

/** Sessions whose diff a row shows (a test of 20 trials has 20). */
const SESSIONS_SHOWN = 3;

const LABEL: Record<StatusChange, string> = {
  broken: "broken",
  fixed: "fixed",
  added: "added",
  removed: "removed",
  passing: "passing",
  failing: "still failing",
  skipped: "skipped",
};

/** Two runs compared, as one self-contained page (no script, nothing fetched): changed tests first. */
export function comparisonHtml(comparison: Comparison, pages: ComparedPages = {}): string {
  const { counts } = comparison;
  // Judges' scores and costs in columns of their own, when a test has any.
  const columns = {
    scores: comparison.tests.some((test) => test.baseline?.scores || test.current?.scores),
    cost: comparison.tests.some((test) => test.baseline?.costUsd !== undefined || test.current?.costUsd !== undefined),
  };
  const rows = [...comparison.tests].sort((a, b) => Number(isChanged(b)) - Number(isChanged(a))).map((test) => row(test, pages, columns));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>tooltrace: ${counts.broken} broken, ${counts.fixed} fixed against the baseline</title>
<style>${STYLE}</style>
</head>
<body>
<h1>This run against the baseline</h1>
<div class="counts">${comparison.tests.length} tests · <b class="bad">${counts.broken} broken</b> · <b class="good">${counts.fixed} fixed</b> · ${counts.added} added · ${counts.removed} removed · <b>${counts.trajectoryChanged} took another path</b></div>
<table>
<thead><tr><th>Test</th><th>Status</th><th>Pass rate (95% interval)</th><th>Tokens</th><th>Latency</th>${columns.scores ? "<th>Scores</th>" : ""}${columns.cost ? "<th>Cost</th>" : ""}</tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
</body>
</html>
`;
}

function row(test: ComparedTest, pages: ComparedPages, columns: { scores: boolean; cost: boolean }): string {
  const links = [
    test.baseline && pages.baseline ? link(pages.baseline, test.baseline.id, "baseline") : "",
    test.current && pages.current ? link(pages.current, test.current.id, "current") : "",
  ].join("");
  const shown = test.trajectory.slice(0, SESSIONS_SHOWN);
  const more = test.trajectory.length - shown.length;
  const diffs =
    shown
      .map(({ session, diff }) => `<div class="session">${escapeHtml(session)}</div><pre class="diff">${diffLines(diff)}</pre>`)
      .join("") + (more > 0 ? `<div class="session">and ${more} more ${more === 1 ? "session" : "sessions"} whose path changed</div>` : "");
  return `<tr class="test ${test.status}${isChanged(test) ? " changed" : " unchanged"}" data-status="${test.status}">
<td><div class="file">${escapeHtml(test.file)}</div><div class="name">${escapeHtml(test.name)}</div>${links}${diffs}</td>
<td><span class="status ${test.status}">${LABEL[test.status]}</span></td>
<td class="rates">${rates(test)}</td>
<td>${change(test.baseline?.tokens, test.current?.tokens, "")}</td>
<td>${change(test.baseline?.durationMs, test.current?.durationMs, " ms")}</td>${columns.scores ? `<td>${escapeHtml(scoresChange(test.baseline?.scores, test.current?.scores))}</td>` : ""}${columns.cost ? `<td>${escapeHtml(costChange(test))}</td>` : ""}
</tr>`;
}

function rates(test: ComparedTest): string {
  const before = test.baseline?.trials;
  const after = test.current?.trials;
  if (!before && !after) return "";
  const bar = (interval: RateInterval, which: string) =>
    `<div class="rate ${which}" title="${which} ${percent(interval.rate)} (${percent(interval.low)} to ${percent(interval.high)})"><span class="ci" style="left:${percent(interval.low)};width:${percent(interval.high - interval.low)}"></span><span class="dot" style="left:${percent(interval.rate)}"></span></div>`;
  const parts = [before ? bar(before.interval, "baseline") : "", after ? bar(after.interval, "current") : ""];
  const moved = test.passRate;
  if (before && after && moved) {
    const direction = moved.change >= 0 ? " up" : "";
    parts.push(
      `<div class="rtext${moved.significant ? ` significant${direction}` : ""}">${escapeHtml(before.passed)}/${escapeHtml(before.count)} → ${escapeHtml(after.passed)}/${escapeHtml(after.count)}: ${signed(moved.change * 100)} pt (${signed(moved.low * 100)} to ${signed(moved.high * 100)})${moved.significant ? "" : ", within chance"}</div>`,
    );
  }
  return parts.join("");
}

function change(before: number | undefined, after: number | undefined, unit: string): string {
  if (before === undefined || after === undefined || Math.round(before) === Math.round(after))
    return `${Math.round(after ?? before ?? 0)}${unit}`;
  return `${Math.round(before)} → ${Math.round(after)}${unit}`;
}

function diffLines(diff: string): string {
  return diff
    .split("\n")
    .map((line) => {
      const text = escapeHtml(line);
      const trimmed = line.trimStart();
      const kind = trimmed.startsWith("+") ? "add" : trimmed.startsWith("-") ? "del" : trimmed.startsWith("~") ? "chg" : "";
      return kind === "" ? text : `<span class="${kind}">${text}</span>`;
    })
    .join("\n");
}

function link(page: string, id: string, label: string): string {
  return `<a href="${escapeHtml(`${pathToFileURL(page).href}#test=${encodeURIComponent(id)}`)}">${label} ›</a>`;
}
