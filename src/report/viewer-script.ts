import { VIEWER_CALLS } from "./viewer-calls.js";
import { VIEWER_LIST } from "./viewer-list.js";

/**
 * The viewer's code, run in the page: plain browser JavaScript kept as text (no template literals inside,
 * so it can live in one). It reads the report's data from `<script id="tooltrace-data">` and draws the test
 * list, the selected test's conversation (every interaction, what answered it, its details on demand) and
 * a waterfall of its interactions on one clock. State lives in the URL's hash, so a link opens one test or
 * one call.
 */
export const VIEWER_SCRIPT = String.raw`
(function () {
  var data = JSON.parse(document.getElementById("tooltrace-data").textContent);
  performance.mark("tooltrace:parsed");
  var tests = data.tests;
  var state = { filter: "all", kind: "all", by: "all", status: "all", query: "", test: undefined, call: undefined };
  var $ = function (tag, cls, text) {
    var el = document.createElement(tag);
    if (cls) el.className = cls;
    if (text !== undefined) el.textContent = text;
    return el;
  };
  var when = function (iso) { var date = new Date(iso); return isNaN(date.getTime()) ? String(iso) : date.toLocaleString(); };
  var json = function (value) {
    try { return JSON.stringify(value, null, 2); } catch (e) { return String(value); }
  };
  var short = function (value, max) {
    var text = typeof value === "string" ? value : json(value);
    text = text === undefined ? "" : text.replace(/\s+/g, " ");
    return text.length > max ? text.slice(0, max - 1) + "\u2026" : text;
  };
${VIEWER_CALLS}
  var callsOf = function (test) {
    var all = [];
    ((test.meta && test.meta.sessions) || []).forEach(function (s) { s.turns.forEach(function (t) { all.push.apply(all, interactions(t)); }); });
    return all;
  };
  // What each test matched, for the filters it was matched under: a live update matches the tests it changed.
  var matched = new WeakMap();
  var matches = function (test) {
    var under = [state.filter, state.kind, state.by, state.status, state.query].join("\u0000");
    var known = matched.get(test);
    if (known && known.under === under) return known.ok;
    var ok = matchesNow(test);
    matched.set(test, { under: under, ok: ok });
    return ok;
  };
  var matchesNow = function (test) {
    if (state.filter === "failed" && test.state !== "failed") return false;
    if ((state.kind !== "all" || state.by !== "all" || state.status !== "all") && !callsOf(test).some(shownCall)) return false;
    if (state.query === "") return true;
    var q = state.query.toLowerCase();
    if (test.fullName.toLowerCase().indexOf(q) !== -1) return true;
    return callsOf(test).some(function (c) { return nameOf(c).toLowerCase().indexOf(q) !== -1; });
  };
  var readHash = function () {
    var params = new URLSearchParams(location.hash.slice(1));
    state.test = params.get("test") || undefined;
    state.call = params.get("call") || undefined;
  };
  var writeHash = function () {
    var params = new URLSearchParams();
    if (state.test) params.set("test", state.test);
    if (state.call) params.set("call", state.call);
    history.replaceState(null, "", "#" + params.toString());
  };

${VIEWER_LIST}
  function drawCall(call, turn, parent) {
    var row = $("div", "call " + call.kind + " " + call.status + (call.viewParent ? " nested" : ""));
    row.id = "call-" + call.seq;
    row.setAttribute("data-seq", String(call.seq));
    var head = $("div", "head");
    head.appendChild($("span", "kind", call.kind));
    head.appendChild($("span", "cname", nameOf(call)));
    if (call.viewParent) head.appendChild($("span", "via", "from " + nameOf(call.viewParent)));
    head.appendChild($("span", "status", call.status));
    head.appendChild($("span", "by", source(call.answeredBy, call.kind)));
    head.appendChild($("span", "ms", ms(call.durationMs)));
    row.appendChild(head);
    var summary = call.kind === "tool" ? short(call.input, 120) + (call.error ? "  \u2192 " + short(call.error.message, 160) : call.status === "completed" ? "  \u2192 " + short(call.output, 160) : "")
      : call.kind === "model" ? short((call.reply && (call.reply.text || (call.reply.toolCalls || []).map(function (t) { return t.name; }).join(", "))) || "", 200)
      : String(call.statusCode || "");
    row.appendChild($("div", "summary", summary));
    var open = state.call === String(call.seq);
    head.onclick = function () {
      state.call = state.call === String(call.seq) ? undefined : String(call.seq);
      writeHash();
      draw();
    };
    if (open) {
      row.classList.add("open");
      var details = $("div", "details");
      var fields = call.kind === "tool" ? { input: call.input, output: call.output, error: call.error, path: call.path, changes: call.changes }
        : call.kind === "model" ? { request: call.request, reply: call.reply, usage: call.usage, http: call.http, providerWait: call.providerWait }
        : { method: call.method, url: call.url, requestBody: call.requestBody, status: call.statusCode, parentSeq: call.parentSeq };
      Object.keys(fields).forEach(function (key) {
        if (fields[key] === undefined || fields[key] === null) return;
        details.appendChild($("div", "label", key));
        details.appendChild($("pre", "value", json(fields[key])));
      });
      row.appendChild(details);
    }
    parent.appendChild(row);
  }

  // A long turn's timeline is one canvas (a bar per interaction, 2 px high): thousands of lanes as elements
  // would cost more than the conversation itself.
  function drawCanvasTimeline(calls, start, end, parent) {
    var box = $("div", "timeline");
    var canvas = document.createElement("canvas");
    var width = 1000;
    // At most 400 pixel rows: several interactions share a row in a very long turn.
    var height = Math.min(calls.length * 2, 400);
    var row = height / calls.length;
    canvas.width = width;
    canvas.height = height;
    canvas.className = "canvas";
    var g = canvas.getContext("2d");
    var span = Math.max(end - start, 1);
    var colors = { tool: "#8250df", model: "#0969da", http: "#9a6700" };
    calls.forEach(function (call, i) {
      var stop = call.end === undefined || call.end === null ? end : call.end;
      g.fillStyle = call.status === "failed" || call.status === "rejected" ? "#cf222e" : colors[call.kind] || "#888";
      g.fillRect(((call.start - start) / span) * width, Math.floor(i * row), Math.max(((stop - call.start) / span) * width, 1), Math.max(row, 1));
    });
    canvas.onclick = function (event) {
      var rect = canvas.getBoundingClientRect();
      var index = Math.floor(((event.clientY - rect.top) / rect.height) * calls.length);
      if (calls[index]) { state.call = String(calls[index].seq); writeHash(); draw(); }
    };
    box.appendChild(canvas);
    parent.appendChild(box);
  }

  function drawTimeline(turn, calls, parent) {
    var start = calls.reduce(function (min, c) { return Math.min(min, c.start); }, Infinity);
    var end = calls.reduce(function (max, c) { return Math.max(max, c.end === undefined || c.end === null ? c.start : c.end); }, start);
    if (calls.length > 500) return drawCanvasTimeline(calls, start, end, parent);
    var box = $("div", "timeline");
    var span = Math.max(end - start, 1);
    calls.forEach(function (call) {
      var bar = $("div", "bar " + call.kind + " " + call.status);
      var stop = call.end === undefined || call.end === null ? end : call.end;
      bar.style.left = ((call.start - start) / span) * 100 + "%";
      bar.style.width = Math.max(((stop - call.start) / span) * 100, 0.4) + "%";
      bar.title = nameOf(call) + " \u2014 " + call.status;
      bar.setAttribute("data-seq", String(call.seq));
      bar.onclick = function () { state.call = String(call.seq); writeHash(); draw(); };
      var lane = $("div", "lane");
      lane.appendChild($("span", "lane-name", nameOf(call)));
      var track = $("div", "track");
      track.appendChild(bar);
      lane.appendChild(track);
      box.appendChild(lane);
    });
    parent.appendChild(box);
  }

  // After the next frame is on screen (a callback of requestAnimationFrame runs before its frame's paint).
  var afterPaint = function (fn) { requestAnimationFrame(function () { setTimeout(fn, 0); }); };
  // The first rows at once, the rest a chunk per frame: a long turn opens at once and fills in. Rows go in groups
  // of 25, each drawn by the browser only near the screen: a group, not each row, for it to watch every frame.
  var pending = 0;
  function drawCalls(calls, turn, list) {
    var at = 0, group;
    var chunk = function (size) {
      var rows = document.createDocumentFragment();
      for (var end = Math.min(at + size, calls.length); at < end; at++) {
        if (at % 25 === 0) {
          group = rows.appendChild($("div", "call-group"));
          group.style.containIntrinsicSize = "auto " + Math.min(25, calls.length - at) * 48 + "px";
        }
        drawCall(calls[at], turn, group);
      }
      list.appendChild(rows);
      if (at < calls.length) afterPaint(function () { chunk(2000); });
      else if (--pending === 0) { performance.mark("tooltrace:complete"); document.body.setAttribute("data-complete", "true"); }
    };
    pending += 1;
    document.body.removeAttribute("data-complete");
    chunk(state.call ? calls.length : 150);
  }

  function drawTest() {
    var main = document.getElementById("main");
    main.textContent = "";
    var test = tests.find(function (t) { return t.id === state.test; }) || tests.find(matches);
    if (!test) { main.appendChild($("p", "empty", "No test matches.")); return; }
    state.test = test.id;
    var header = $("div", "header " + test.state);
    header.appendChild($("h1", "", test.fullName));
    header.appendChild($("div", "where", test.state + " \u00b7 " + test.file + (test.durationMs !== undefined ? " \u00b7 " + ms(test.durationMs) : "")));
    if (test.fromRun) header.appendChild($("div", "earlier", "from an earlier run (" + when(test.fromRun) + "): its file did not rerun"));
    main.appendChild(header);
    var since = window.tooltraceSince(test, $);
    if (since) main.appendChild(since);
    (test.errors || []).forEach(function (error) { main.appendChild($("pre", "error", error)); });
    window.tooltraceTrialSections(test, main, $);
    var sessions = (test.meta && test.meta.sessions) || [];
    if (sessions.length === 0) main.appendChild($("p", "empty", "No tooltrace session in this test."));
    sessions.forEach(function (session) {
      var box = $("section", "session");
      box.appendChild($("h2", "", session.name + (session.strict ? " (strict)" : "")));
      (session.violations || []).forEach(function (v) { box.appendChild($("div", "violation", v)); });
      if ((session.unusedRuleIds || []).length > 0) box.appendChild($("div", "unused", "unused rules: " + session.unusedRuleIds.join(", ")));
      session.turns.forEach(function (turn) {
        var t = $("div", "turn " + turn.status);
        t.appendChild($("div", "bubble user", turn.userMessage));
        var calls = interactions(turn).filter(shownCall);
        var list = $("div", "calls");
        drawCalls(calls, turn, list);
        t.appendChild(list);
        if (turn.error) t.appendChild($("div", "bubble failed", turn.error.name + ": " + turn.error.message));
        else t.appendChild($("div", "bubble agent", turn.text || "(no text)"));
        t.appendChild($("div", "usage", calls.length + " interactions \u00b7 " + turn.usage.totalTokens + " tokens \u00b7 " + ms(turn.durationMs || 0) + (turn.costUsd !== undefined ? " \u00b7 " + window.tooltraceUsd(turn.costUsd) : "")));
        (turn.scores || []).forEach(function (j) {
          t.appendChild($("div", "score " + (j.pass ? "pass" : "fail"), "judge " + j.judge + ": " + j.score.toFixed(2) + " (at least " + j.threshold + ")" + (j.reason ? " \u2014 " + j.reason : "")));
        });
        if (calls.length > 0) drawTimeline(turn, calls, t);
        box.appendChild(t);
      });
      main.appendChild(box);
    });
    if (state.call) {
      var open = document.getElementById("call-" + state.call);
      if (open) open.scrollIntoView({ block: "center" });
    }
  }

  // The runs the report's folder has seen, newest first: one line each.
  function drawHistory() {
    var runs = Array.isArray(data.history) ? data.history.slice().reverse() : [];
    var box = document.getElementById("history");
    if (runs.length === 0) return;
    box.appendChild($("summary", "", "Last " + (runs.length === 1 ? "run" : runs.length + " runs")));
    var list = $("ol", "");
    runs.forEach(function (run) {
      var line = when(run.at) + " \u00b7 " + run.tests + (run.tests === 1 ? " test" : " tests") + " \u00b7 " + run.failed + " failed \u00b7 " + ms(run.durationMs);
      list.appendChild($("li", run.failed > 0 ? "failed" : "passed", line));
    });
    box.appendChild(list);
    box.hidden = false;
  }

  // keepTest: the list only (the open test did not change).
  function draw(keepTest) {
    pending = 0;
    drawList();
    if (!keepTest) drawTest();
    if (pending === 0) document.body.setAttribute("data-complete", "true");
    if (window.tooltraceDrawn) window.tooltraceDrawn(state.test);
  }
  // The live viewer's update (viewer-live.ts): the open test stays open, redrawn only when it changed.
  window.tooltraceUpdate = function (next) {
    var open = function (list) { return list.find(function (t) { return t.id === state.test; }); };
    var main = document.getElementById("main"), top = main.scrollTop, same = open(tests) !== undefined && open(tests) === open(next.tests);
    var history = next.history !== data.history;
    data = next; tests = next.tests;
    if (history) { document.getElementById("history").textContent = ""; drawHistory(); }
    draw(same);
    if (!same) main.scrollTop = top;
  };

  document.getElementById("search").oninput = function (event) { state.query = event.target.value; draw(); };
  Array.prototype.forEach.call(document.querySelectorAll("[data-filter]"), function (button) {
    button.onclick = function () {
      state.filter = button.getAttribute("data-filter");
      Array.prototype.forEach.call(document.querySelectorAll("[data-filter]"), function (b) { b.classList.toggle("on", b === button); });
      draw();
    };
  });
  ["kind", "by", "status"].forEach(function (name) {
    document.getElementById("filter-" + name).onchange = function (event) { state[name] = event.target.value; draw(); };
  });
  window.addEventListener("hashchange", function () { readHash(); draw(); });
  readHash();
  if (!state.test) { var failed = tests.find(function (t) { return t.state === "failed"; }); if (failed) state.test = failed.id; }
  // The first frame on screen: the milestone the viewer's bench reads.
  afterPaint(function () { performance.mark("tooltrace:shown"); });
  drawHistory();
  draw();
  performance.mark("tooltrace:drawn");
  document.body.setAttribute("data-ready", "true");
})();
`;
