/**
 * The viewer's reading of a turn, run in the page (plain browser JavaScript kept as text, joined into the
 * viewer's script): what answered a call, its name, its duration, and the turn's interactions in order with
 * each HTTP exchange under the call that made it. It uses `state` (the filters) and `json`.
 */
export const VIEWER_CALLS = String.raw`
  var source = function (by, kind) {
    if (!by) return "not answered";
    switch (by.kind) {
      case "stub": return (kind === "http" ? "HTTP mock \u201c" : "stub \u201c") + by.ruleId + "\u201d #" + (by.outcomeIndex + 1);
      case "real": return kind === "tool" ? "real tool" : kind === "http" ? "network" : "real model";
      case "mock-model": return "mock model";
      case "msw-handler": return "your MSW handler";
      case "strict": return "strict mode";
      case "middleware": return "middleware \u201c" + by.name + "\u201d";
      case "cassette": return "cassette, recorded call " + (by.entry + 1);
      case "outside": return "never reached tooltrace";
      case "fault": return "injected fault: " + by.fault + " (" + by.where + ")";
      default: return by.kind;
    }
  };
  // A turn's interactions in order, each HTTP exchange right under the call that made it (its parentSeq).
  var interactions = function (turn) {
    var all = [];
    (turn.toolCalls || []).forEach(function (c) { all.push(c); });
    (turn.modelCalls || []).forEach(function (c) { all.push(c); });
    (turn.httpCalls || []).forEach(function (c) { all.push(c); });
    all.sort(function (a, b) { return a.seq - b.seq; });
    var bySeq = {};
    all.forEach(function (c) { bySeq[c.seq] = c; });
    var children = {};
    var top = [];
    all.forEach(function (c) {
      if (c.parentSeq !== undefined && c.parentSeq !== null && bySeq[c.parentSeq]) (children[c.parentSeq] = children[c.parentSeq] || []).push(c);
      else top.push(c);
    });
    var ordered = [];
    var add = function (c, parent) {
      c.viewParent = parent;
      ordered.push(c);
      (children[c.seq] || []).forEach(function (child) { add(child, c); });
    };
    top.forEach(function (c) { add(c, undefined); });
    return ordered;
  };
  // What answered a call, as the answer filter names it.
  var answerOf = function (call) {
    var by = call.answeredBy;
    if (call.status === "rejected" || (by && (by.kind === "strict" || by.kind === "outside"))) return "refused";
    if (!by) return "none";
    if (by.kind === "mock-model") return "mock";
    if (by.kind === "msw-handler") return "msw";
    return by.kind;
  };
  var shownCall = function (call) {
    return (state.kind === "all" || call.kind === state.kind) && (state.by === "all" || answerOf(call) === state.by) &&
      (state.status === "all" || call.status === state.status);
  };
  var ms = function (value) {
    if (value === undefined || value === null) return "";
    return (value < 1 ? value.toFixed(2) : value < 10 ? value.toFixed(1) : String(Math.round(value))) + " ms";
  };
  var nameOf = function (call) {
    if (call.kind === "tool") return call.qualifiedName || call.tool;
    if (call.kind === "model") return call.provider + " " + call.model;
    return call.method + " " + call.url;
  };
`;
