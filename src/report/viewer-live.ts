/**
 * The served viewer's live part (`viewerHtml` with a token): it follows its server's events (`/events`: the
 * whole report when it connects and at each run's end; `tests`, each test as Vitest starts it (a mark alone
 * when the page has it) and reports it, batched per turn of the server's event loop; `whole`, a large test's
 * whole trace after its first calls) and hands the viewer each new state, at most once a frame; it adds the
 * rerun buttons (a test, its file, every failed test), which POST to `/rerun` with the page's token. Plain
 * browser JavaScript kept as text; every name and message from the run is set as text, never markup.
 */
export const LIVE_SCRIPT = String.raw`
(function () {
  var live = JSON.parse(document.getElementById("tooltrace-live").textContent);
  var token = live.token;
  var current = JSON.parse(document.getElementById("tooltrace-data").textContent);
  var header = document.querySelector("aside header");
  var status = document.createElement("div");
  status.id = "live-status";
  header.appendChild(status);
  var say = function (text, bad) { status.textContent = text; status.className = bad ? "bad" : ""; };
  // When each test's result, and each large test's whole trace, was on screen: what the live bench reads.
  window.tooltraceShownAt = {};
  window.tooltraceWholeAt = {};
  var rerun = function (what, id) {
    say(what === "failed" ? "rerunning the failed tests\u2026" : "rerunning\u2026");
    fetch("/rerun", { method: "POST", headers: { "content-type": "application/json", "x-tooltrace-token": token }, body: JSON.stringify({ what: what, id: id }) })
      .then(function (response) { if (!response.ok) return response.text().then(function (text) { say(text, true); }); })
      .catch(function (error) { say("the rerun was not sent: " + error.message, true); });
  };
  var button = function (label, what, id, title) {
    var b = document.createElement("button");
    b.className = "rerun";
    b.textContent = label;
    b.title = title;
    b.setAttribute("data-rerun", what);
    b.onclick = function (event) { event.stopPropagation(); rerun(what, id); };
    return b;
  };
  if (live.rerun) document.querySelector("aside .filters").appendChild(button("Rerun failed", "failed", undefined, "Rerun every failed test"));

  // After each draw of the viewer: the open test's note while its trace is partial, its buttons, and one per file in the list.
  window.tooltraceDrawn = function (testId) {
    var head = document.querySelector("main .header");
    var test = current.tests.find(function (t) { return t.id === testId; });
    if (head && test && test.partial && !head.querySelector(".partial")) {
      var n = function (count) { return count.toLocaleString("en-US"); };
      var note = document.createElement("p");
      note.className = "partial";
      note.textContent = "The first " + n(test.partial.shown) + " of " + n(test.partial.calls) + " calls: the rest are on their way\u2026";
      head.appendChild(note);
    }
    if (!live.rerun) return;
    if (head && test && !head.querySelector(".rerun")) {
      var box = document.createElement("div");
      box.className = "reruns";
      if (!test.fileErrors) box.appendChild(button("Rerun test", "test", test.id, "Rerun this test alone"));
      box.appendChild(button("Rerun file", "file", test.id, "Rerun " + test.file));
      head.appendChild(box);
    }
    Array.prototype.forEach.call(document.querySelectorAll("#tests li.file"), function (row) {
      var first = row.nextElementSibling;
      if (first && first.getAttribute("data-test") && !row.querySelector(".rerun")) row.appendChild(button("\u21bb", "file", first.getAttribute("data-test"), "Rerun " + row.textContent));
    });
  };

  var title = function () {
    var real = current.tests.filter(function (t) { return !t.fileErrors; });
    var passed = real.filter(function (t) { return t.state === "passed"; }).length;
    var text = "tooltrace: " + passed + " of " + real.length + " passed";
    document.title = text;
    document.querySelector("aside h1").textContent = text;
    var running = current.tests.filter(function (t) { return t.running; }).length;
    if (!status.classList.contains("bad") || running > 0) say(running > 0 ? "running " + running + (running === 1 ? " test\u2026" : " tests\u2026") : "live \u00b7 up to date");
  };
  var shown = [];
  var whole = [];
  var scheduled = false;
  var render = function () {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(function () {
      scheduled = false;
      window.tooltraceUpdate(current);
      title();
      var ids = shown, wholeIds = whole;
      shown = [];
      whole = [];
      // When the frame is on screen: what the live bench reads.
      setTimeout(function () {
        var now = Date.now();
        ids.forEach(function (id) { window.tooltraceShownAt[id] = now; });
        wholeIds.forEach(function (id) { window.tooltraceWholeAt[id] = now; });
      }, 0);
    });
  };
  var events = new EventSource("/events?token=" + encodeURIComponent(token));
  events.addEventListener("report", function (event) {
    current = JSON.parse(event.data);
    render();
  });
  events.addEventListener("tests", function (event) {
    var tests = current.tests.slice();
    var index = {};
    var reindex = function () { index = {}; tests.forEach(function (t, i) { index[t.id] = i; }); };
    reindex();
    JSON.parse(event.data).forEach(function (test) {
      var known = Object.prototype.hasOwnProperty.call(index, test.id);
      // A test the page has, marked running: its last trace stays.
      if (test.mark === "running") { if (known) tests[index[test.id]] = Object.assign({}, tests[index[test.id]], { running: true, trialsSoFar: test.trialsSoFar }); }
      else if (known) tests[index[test.id]] = test;
      else {
        // A new test: after the last of its file, or at the end.
        var last = tests.length;
        tests.forEach(function (t, i) { if (t.file === test.file) last = i + 1; });
        tests.splice(last, 0, test);
        reindex();
      }
      shown.push(test.id);
    });
    current = Object.assign({}, current, { tests: tests });
    render();
  });
  events.addEventListener("whole", function (event) {
    var test = JSON.parse(event.data);
    var at = current.tests.findIndex(function (t) { return t.id === test.id; });
    if (at < 0) return;
    var tests = current.tests.slice();
    tests[at] = test;
    current = Object.assign({}, current, { tests: tests });
    whole.push(test.id);
    render();
  });
  events.onopen = function () { say("live \u00b7 up to date"); };
  events.onerror = function () { say("the watch session is not answering: reconnecting\u2026", true); };
  window.dispatchEvent(new Event("hashchange"));
  document.body.setAttribute("data-live", "true");
})();
`;

/** The live part's styles: a running test's row, the rerun buttons, the connection's line. */
export const LIVE_STYLE = `
#tests li { content-visibility: auto; contain-intrinsic-size: auto 30px; }
.test.running { background: #fff8c5; } .test.running .mark { color: #9a6700; animation: tooltrace-pulse 1s infinite; }
@keyframes tooltrace-pulse { 50% { opacity: 0.3; } }
button.rerun { border: 1px solid var(--line); background: var(--panel); border-radius: 6px; padding: 1px 8px; cursor: pointer; font: inherit; }
button.rerun:hover { background: #eef3fb; } .file button.rerun { float: right; padding: 0 6px; font-size: 11px; }
.header .reruns { display: flex; gap: 6px; margin: -4px 0 12px; } .header .partial { color: var(--dim); margin: -4px 0 12px; }
#live-status { margin-top: 6px; color: var(--dim); font-size: 12px; } #live-status.bad { color: var(--bad); }
`;
