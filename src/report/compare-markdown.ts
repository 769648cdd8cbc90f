import { type ComparedSide, type ComparedTest, type Comparison, isChanged, type StatusChange } from "./compare.js";
import { markdownFence, markdownText } from "../exits/escape.js";
import { percent, signed } from "../base/percent.js";
import { formatUsd } from "../trace/cost.js";

const LABEL: Record<StatusChange, string> = {
  broken: "❌ broken",
  fixed: "✅ fixed",
  added: "🆕 added",
  removed: "➖ removed",
  passing: "passing",
  failing: "still failing",
  skipped: "skipped",
};

/** The comparison as markdown for a pull-request comment or a job summary: the changed tests, then their diffs. */
export function comparisonMarkdown(comparison: Comparison, options: { readonly sessionsShown?: number } = {}): string {
  const { counts } = comparison;
  const changed = comparison.tests.filter(isChanged);
  const lines = [
    "## tooltrace: this run against the baseline",
    "",
    `${comparison.tests.length} tests · ${counts.broken} broken · ${counts.fixed} fixed · ${counts.added} added · ` +
      `${counts.removed} removed · ${counts.trajectoryChanged} took another path`,
    "",
  ];
  if (changed.length === 0) return [...lines, "No test changed status, pass rate or path."].join("\n");
  // Judges' scores and costs in columns of their own, when a compared test has any.
  const scored = changed.some((test) => test.baseline?.scores || test.current?.scores);
  const priced = changed.some((test) => test.baseline?.costUsd !== undefined || test.current?.costUsd !== undefined);
  const extra = [...(scored ? ["Scores"] : []), ...(priced ? ["Cost"] : [])];
  lines.push(
    `| Test | Status | Pass rate | Tokens | Latency |${extra.map((name) => ` ${name} |`).join("")}`,
    `| --- | --- | --- | --- | --- |${extra.map(() => " --- |").join("")}`,
  );
  for (const test of changed) {
    const more = [
      ...(scored ? [cell(scoresChange(test.baseline?.scores, test.current?.scores))] : []),
      ...(priced ? [costChange(test)] : []),
    ];
    lines.push(
      `| ${cell(`${test.file} › ${test.name}`)} | ${LABEL[test.status]} | ${passRate(test)} | ${delta(test, "tokens")} | ${delta(test, "durationMs")} |${more.map((text) => ` ${text} |`).join("")}`,
    );
  }
  const shown = options.sessionsShown ?? 3;
  for (const test of changed.filter((item) => item.trajectory.length > 0)) {
    lines.push("", `<details><summary>${markdownText(test.name)}: the path changed</summary>`, "");
    for (const { session, diff } of test.trajectory.slice(0, shown))
      lines.push(`${markdownText(session)}:`, "", markdownFence("diff", diff), "");
    if (test.trajectory.length > shown) lines.push(`and ${test.trajectory.length - shown} more sessions.`, "");
    lines.push("</details>");
  }
  return lines.join("\n");
}

function passRate(test: ComparedTest): string {
  const before = test.baseline?.trials;
  const after = test.current?.trials;
  if (!before || !after || !test.passRate) return after ? percent(after.interval.rate) : "";
  const { change, low, high, significant } = test.passRate;
  return `${percent(before.interval.rate)} → ${percent(after.interval.rate)} (${signed(change * 100, "pt")}, 95% CI ${signed(low * 100, "")} to ${signed(high * 100, "pt")})${significant ? "" : ", within chance"}`;
}

function delta(test: ComparedTest, field: keyof Pick<ComparedSide, "tokens" | "durationMs">): string {
  const unit = field === "tokens" ? "" : " ms";
  const before = test.baseline?.[field];
  const after = test.current?.[field];
  if (before === undefined || after === undefined) return `${Math.round(after ?? before ?? 0)}${unit}`;
  if (before === after) return `${Math.round(after)}${unit}`;
  const share = before === 0 ? "" : ` (${signed(((after - before) / before) * 100, "%")})`;
  return `${Math.round(before)} → ${Math.round(after)}${unit}${share}`;
}

/** Each judge's mean score before and after: `answer 0.90 → 0.60`. */
export function scoresChange(
  before: Readonly<Record<string, number>> | undefined,
  after: Readonly<Record<string, number>> | undefined,
): string {
  const names = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  const score = (value: number | undefined) => (value === undefined ? "–" : value.toFixed(2));
  return names
    .map((name) => {
      const [a, b] = [before?.[name], after?.[name]];
      return a === b || before === undefined ? `${name} ${score(b)}` : `${name} ${score(a)} → ${score(b)}`;
    })
    .join(", ");
}

/** What the test's calls to a real model cost before and after: `$0.0012 → $0.0030 (+150%)`. */
export function costChange(test: ComparedTest): string {
  const [before, after] = [test.baseline?.costUsd, test.current?.costUsd];
  if (before === undefined || after === undefined || before === after) return formatUsd(after ?? before ?? 0);
  const share = before === 0 ? "" : ` (${signed(((after - before) / before) * 100, "%")})`;
  return `${formatUsd(before)} → ${formatUsd(after)}${share}`;
}

/** Table cells: one line, no pipe breaking the row, no markup. */
const cell = markdownText;
