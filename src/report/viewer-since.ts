/**
 * The viewer's "since the last run" block on a test's page (its state, tokens, latency and judges' scores before
 * and after, the tool sequence's diff) and the list's marker for a test whose state changed. Plain browser
 * JavaScript kept as text, defining `tooltraceSince` and `tooltraceStateChanged` for the viewer's script.
 */
export const SINCE_SCRIPT = String.raw`
window.tooltraceStateChanged = function (test) {
  var since = test.sinceLast;
  return since && since.before && since.after && since.before.state !== since.after.state ? since.before.state + " \u2192 " + since.after.state : "";
};
window.tooltraceSince = function (test, $) {
  var since = test.sinceLast;
  if (!since || !since.before || !since.after) return undefined;
  var box = $("section", "since");
  box.appendChild($("h2", "", "Since the last run"));
  var number = function (n) { return Math.round(n).toLocaleString("en-US"); };
  var moved = function (label, before, after, unit) {
    if (Math.round(before) === Math.round(after)) return;
    var pct = before === 0 ? "" : " (" + (after >= before ? "+" : "") + Math.round(((after - before) / before) * 100) + "%)";
    box.appendChild($("div", "moved " + label, label + " " + number(before) + unit + " \u2192 " + number(after) + unit + pct));
  };
  var state = window.tooltraceStateChanged(test);
  if (state) box.appendChild($("div", "moved state " + since.after.state, state));
  moved("tokens", since.before.tokens, since.after.tokens, "");
  moved("latency", since.before.durationMs, since.after.durationMs, " ms");
  var before = since.before.scores || {}, after = since.after.scores || {};
  Object.keys(before).concat(Object.keys(after).filter(function (j) { return !(j in before); })).forEach(function (judge) {
    var a = before[judge], b = after[judge];
    if (a === b) return;
    var show = function (s) { return typeof s === "number" ? s.toFixed(2) : "none"; };
    box.appendChild($("div", "moved score", "judge " + judge + " " + show(a) + " \u2192 " + show(b)));
  });
  (since.trajectory || []).forEach(function (t) {
    box.appendChild($("div", "session-name", "tool sequence, " + t.session));
    var pre = $("pre", "diff");
    String(t.diff).split("\n").forEach(function (line, i) {
      var head = line.replace(/^\s+/, "").charAt(0);
      if (i > 0) pre.appendChild(document.createTextNode("\n"));
      pre.appendChild($("span", head === "+" ? "add" : head === "-" ? "del" : head === "~" ? "chg" : "", line));
    });
    box.appendChild(pre);
  });
  return box;
};
`;

/** The block's and the marker's styles. */
export const SINCE_STYLE = `
.since { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 16px; margin-bottom: 16px; }
.since h2 { font-size: 13px; margin: 0 0 6px; color: var(--dim); }
.since .moved { margin: 2px 0; } .since .state { font-weight: 600; } .since .state.passed { color: var(--ok); }
.since .state.failed { color: var(--bad); } .since .session-name { color: var(--dim); font-size: 11px; margin-top: 6px; }
.since pre.diff { padding: 8px; background: #f6f8fa; border-radius: 6px; margin-top: 4px; }
.since .add { color: var(--ok); } .since .del { color: var(--bad); } .since .chg { color: #9a6700; }
.test .changed { margin-left: auto; color: #9a6700; font-size: 11px; white-space: nowrap; }
`;
