/**
 * The viewer's chart of a test's repeated trials (`trials()`, YAML variants): the pass rate as a bar with the
 * `minPassRate` marked, one square per trial (its seed, branch and why it failed on hover, its path below), and
 * how many trials took each path; while a watch session runs the test, the trials finished so far (see
 * `live-trials.ts`). Plain browser JavaScript kept as text, defining `tooltraceTrials` and the list's badges and
 * the test's sections for the viewer's script; every name and message is set as text.
 */
export const TRIALS_SCRIPT = String.raw`
// The trials merged by the calls they made: a row per branch, indented under where it split off.
var tooltraceTree = function (root, $) {
  var box = $("div", "tree");
  box.appendChild($("h3", "", "Where they diverge"));
  var pct = function (node) { return Math.round((node.passed / Math.max(node.count, 1)) * 100) + "%"; };
  var add = function (node, depth) {
    var row = $("div", "node" + (node.end ? " end" : "") + (node.passed === node.count ? " pass" : node.passed === 0 ? " fail" : ""));
    row.style.paddingLeft = depth * 18 + "px";
    row.appendChild($("span", "steps", node.end ? "(stopped)" : node.steps.join(" \u2192 ")));
    var bar = $("span", "nbar");
    var fill = $("span", "nfill");
    fill.style.width = pct(node);
    bar.appendChild(fill);
    row.appendChild(bar);
    row.appendChild($("span", "ncount", node.count + " \u00b7 " + pct(node) + " passed"));
    box.appendChild(row);
    node.children.forEach(function (child) { add(child, depth + 1); });
  };
  if (root.children.length === 0) box.appendChild($("div", "node", "(no tool calls) " + root.count));
  root.children.forEach(function (child) { add(child, 0); });
  return box;
};
// A cost in USD as the summaries print it (formatUsd): whole cents, or four digits.
window.tooltraceUsd = function (usd) {
  var cents = Math.abs(Math.round(usd * 100) - usd * 100) < 1e-9;
  return "$" + (usd >= 1 || cents ? usd.toFixed(2) : String(Number(usd.toPrecision(4))));
};
// A running test's trials so far (the live viewer's): how many finished, passed and failed, the pass rate with its interval.
window.tooltraceTrialsSoFar = function (t, $) {
  var box = $("section", "trials so-far");
  var pct = function (share) { return Math.round(share * 1000) / 10 + "%"; };
  box.appendChild($("h2", "", "Trials so far: " + t.done + " of " + t.count + " done \u00b7 " + t.passed + " passed \u00b7 " + t.failed + " failed"));
  box.appendChild($("div", "so-far-name", t.name));
  var min = t.minPassRate !== undefined ? " \u00b7 min " + pct(t.minPassRate) : "";
  box.appendChild($("div", "interval", "pass rate so far " + pct(t.rate) + " (95% interval " + pct(t.low) + "\u2013" + pct(t.high) + ")" + min));
  var rate = $("div", "rate");
  var band = $("div", "band");
  band.style.left = pct(t.low);
  band.style.width = pct(t.high - t.low);
  rate.appendChild(band);
  var fill = $("div", "fill");
  fill.style.width = pct(t.rate);
  rate.appendChild(fill);
  if (t.minPassRate !== undefined) {
    var mark = $("div", "min");
    mark.style.left = pct(t.minPassRate);
    rate.appendChild(mark);
  }
  box.appendChild(rate);
  var squares = $("div", "squares");
  t.runs.forEach(function (run) {
    var square = $("span", "trial " + (run.passed ? "pass" : "fail"), "#" + (run.index + 1));
    square.title = "seed " + run.seed + (run.reason ? " \u00b7 " + run.reason : "");
    square.setAttribute("data-seed", String(run.seed));
    squares.appendChild(square);
  });
  box.appendChild(squares);
  return box;
};
// The list's badges of a test's trials: passed of count, or, while the test runs, how many finished so far.
window.tooltraceTrialBadges = function (test, item, $) {
  if (test.running && test.trialsSoFar) {
    test.trialsSoFar.forEach(function (t) { item.appendChild($("span", "rate-badge so-far", t.done + " of " + t.count)); });
    return;
  }
  ((test.meta && test.meta.trials) || []).forEach(function (t) {
    item.appendChild($("span", "rate-badge" + (t.ok ? "" : " below"), t.passed + "/" + t.count));
  });
};
// The open test's trials: so far while it runs, else as they ended.
window.tooltraceTrialSections = function (test, main, $) {
  if (test.running && test.trialsSoFar) return test.trialsSoFar.forEach(function (t) { main.appendChild(window.tooltraceTrialsSoFar(t, $)); });
  ((test.meta && test.meta.trials) || []).forEach(function (t) { main.appendChild(window.tooltraceTrials(t, $)); });
};
window.tooltraceTrials = function (report, $) {
  var box = $("section", "trials" + (report.ok ? " ok" : " below"));
  var pct = function (share) { return Math.round(share * 1000) / 10 + "%"; };
  var spent = report.costUsd !== undefined ? " \u00b7 " + window.tooltraceUsd(report.costUsd) : "";
  var budget = report.stoppedByBudget ? " \u00b7 budget reached: " + report.ran + " of " + report.count + " ran" : "";
  box.appendChild($("h2", "", "Trials: " + report.passed + " of " + (report.ran !== undefined ? report.ran : report.count) + " passed (" + pct(report.passRate) + ")" + (report.minPassRate !== undefined ? " \u00b7 min " + pct(report.minPassRate) : "") + spent + budget));
  var rate = $("div", "rate");
  var fill = $("div", "fill");
  fill.style.width = pct(report.passRate);
  rate.appendChild(fill);
  if (report.minPassRate !== undefined) {
    var min = $("div", "min");
    min.style.left = pct(report.minPassRate);
    min.title = "minPassRate " + pct(report.minPassRate);
    rate.appendChild(min);
  }
  box.appendChild(rate);
  Object.keys(report.scores || {}).forEach(function (judge) {
    box.appendChild($("div", "mean-score", "mean score, judge " + judge + ": " + report.scores[judge].toFixed(2)));
  });
  var paths = {};
  var order = [];
  report.runs.forEach(function (run) {
    var key = run.path.join(" \u2192 ") || "(no tool calls)";
    if (!(key in paths)) { paths[key] = { count: 0, passed: 0, branch: "b" + order.length }; order.push(key); }
    paths[key].count += 1;
    if (run.passed) paths[key].passed += 1;
  });
  var squares = $("div", "squares");
  report.runs.forEach(function (run) {
    var key = run.path.join(" \u2192 ") || "(no tool calls)";
    var square = $("span", "trial " + (run.passed ? "pass" : "fail"), paths[key].branch);
    square.title = "#" + run.index + " seed " + run.seed + " \u00b7 " + key + (run.reason ? " \u00b7 " + run.reason : "");
    square.setAttribute("data-seed", String(run.seed));
    squares.appendChild(square);
  });
  box.appendChild(squares);
  var table = $("div", "branches");
  order.forEach(function (key) {
    var row = $("div", "branch");
    row.appendChild($("span", "bname", paths[key].branch));
    var track = $("span", "btrack");
    var bar = $("span", "bfill");
    bar.style.width = (paths[key].count / report.count) * 100 + "%";
    track.appendChild(bar);
    row.appendChild(track);
    row.appendChild($("span", "bcount", paths[key].count + " \u00d7 (" + paths[key].passed + " passed)"));
    row.appendChild($("span", "bpath", key));
    table.appendChild(row);
  });
  box.appendChild(table);
  var rates = Object.keys(report.passHatK || {}).map(function (k) { return "pass^" + k + " " + report.passHatK[k].toFixed(2); })
    .concat(Object.keys(report.passAtK || {}).map(function (k) { return "pass@" + k + " " + report.passAtK[k].toFixed(2); }));
  box.appendChild($("div", "rates", rates.join(" \u00b7 ")));
  if (report.tree) box.appendChild(tooltraceTree(report.tree, $));
  return box;
};
`;

/** The chart's styles. */
export const TRIALS_STYLE = `
.trials { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin-bottom: 16px; }
.trials h2 { font-size: 14px; margin: 0 0 8px; } .trials.below h2 { color: var(--bad); }
.trials .rate { position: relative; height: 12px; background: #ffebe9; border-radius: 6px; overflow: visible; }
.trials .fill { height: 12px; background: var(--ok); border-radius: 6px; }
.trials .min { position: absolute; top: -4px; width: 2px; height: 20px; background: var(--text); }
.trials .squares { display: flex; flex-wrap: wrap; gap: 3px; margin: 10px 0; }
.trials .trial { width: 26px; height: 20px; border-radius: 3px; color: #fff; font-size: 10px; text-align: center; line-height: 20px; cursor: default; }
.trials .trial.pass { background: var(--ok); } .trials .trial.fail { background: var(--bad); }
.trials .branch { display: grid; grid-template-columns: 2.5em 160px 8em 1fr; gap: 8px; align-items: center; }
.trials .btrack { height: 8px; background: #f6f8fa; border-radius: 4px; } .trials .bfill { display: block; height: 8px; background: var(--model); border-radius: 4px; }
.trials .bpath { font-family: ui-monospace, monospace; font-size: 12px; color: var(--dim); }
.trials .rates { color: var(--dim); margin-top: 6px; }
.trials .tree { margin-top: 10px; border-top: 1px solid var(--line); padding-top: 8px; }
.trials .tree h3 { font-size: 12px; margin: 0 0 4px; color: var(--dim); }
.trials .node { display: grid; grid-template-columns: minmax(0, 1fr) 80px 10em; gap: 8px; align-items: center; font-size: 12px; }
.trials .node .steps { font-family: ui-monospace, monospace; } .trials .node.end .steps { color: var(--dim); }
.trials .nbar { height: 6px; background: #ffebe9; border-radius: 3px; } .trials .nfill { display: block; height: 6px; background: var(--ok); border-radius: 3px; }
.trials .ncount { color: var(--dim); }
.test .rate-badge { margin-left: auto; color: var(--dim); font-size: 11px; } .test .rate-badge.below { color: var(--bad); }
.trials.so-far .so-far-name, .trials.so-far .interval { color: var(--dim); margin-bottom: 6px; }
.trials .band { position: absolute; top: 0; height: 12px; background: #1a7f3733; border-radius: 6px; }
.trials.so-far .fill { position: relative; } .test .rate-badge.so-far { white-space: nowrap; }
`;
