/**
 * The viewer's test list, run in the page (plain browser JavaScript kept as text, joined into the viewer's
 * script): the tests that match the filters, grouped by file, patched row by row. A row is rebuilt only when
 * what it shows changed, and moved only when it is out of place, so a live update of one test touches one
 * row, and every other row (and what the reader had there: focus, scroll) stays as it was. It uses `$`,
 * `state`, `tests`, `matches`, `when`, `writeHash` and `draw` of the viewer's script.
 */
export const VIEWER_LIST = String.raw`
  // The rows on the page, by key ("t" and a test's id, "f" and a file with its place among its file's groups).
  var rows = {};
  var selectedRow;
  var rowLook = function (test) {
    var trials = ((test.meta && test.meta.trials) || []).map(function (t) { return (t.ok ? "" : "!") + t.passed + "/" + t.count; });
    if (test.running && test.trialsSoFar) trials = test.trialsSoFar.map(function (t) { return t.done + " of " + t.count; });
    return [test.state, test.running ? "running" : "", test.fullName, window.tooltraceStateChanged(test), test.fromRun || "", trials.join(" ")].join("\u0000");
  };
  var testRow = function (test) {
    var item = $("li", "test " + test.state + (test.running ? " running" : ""));
    item.setAttribute("data-test", test.id);
    item.appendChild($("span", "mark", test.state === "passed" ? "\u2713" : test.state === "failed" ? "\u2717" : "\u2013"));
    item.appendChild($("span", "name", test.fullName));
    var moved = window.tooltraceStateChanged(test);
    if (moved) { var mark = $("span", "changed", "changed"); mark.title = "since the last run: " + moved; item.appendChild(mark); }
    if (test.fromRun) {
      var earlier = $("span", "earlier", "earlier run");
      earlier.title = "from an earlier run (" + when(test.fromRun) + "): its file did not rerun";
      item.appendChild(earlier);
    }
    window.tooltraceTrialBadges(test, item, $);
    var id = test.id;
    item.onclick = function () { state.test = id; state.call = undefined; writeHash(); draw(); };
    return item;
  };

  function drawList() {
    var list = document.getElementById("tests");
    var shown = tests.filter(matches);
    // Tests are counted as the header counts them: a file's errors outside its tests is no test.
    var real = function (list) { return list.filter(function (t) { return !t.fileErrors; }).length; };
    var n = real(shown), total = real(tests), files = shown.length - n;
    var count = n + " of " + total + (total === 1 ? " test" : " tests") + (files > 0 ? " \u00b7 " + files + (files === 1 ? " file" : " files") + " with errors" : "");
    if (document.getElementById("count").textContent !== count) document.getElementById("count").textContent = count;
    // The rows wanted, in order: tests grouped by their file, in the order the run reported them.
    var wanted = [], keys = {}, file, groups = {};
    shown.forEach(function (test) {
      if (test.file !== file) {
        file = test.file;
        groups[file] = (groups[file] || 0) + 1;
        wanted.push({ key: "f" + file + "\u0000" + groups[file], look: file, make: function (name) { return function () { return $("li", "file", name); }; }(file) });
      }
      wanted.push({ key: "t" + test.id, look: rowLook(test), make: function (t) { return function () { return testRow(t); }; }(test) });
    });
    wanted.forEach(function (w) { keys[w.key] = true; });
    var old = rows;
    rows = {};
    var at = list.firstChild;
    wanted.forEach(function (w) {
      // Rows no longer wanted are passed over, and removed at the end.
      while (at && !keys[at.tooltraceKey]) at = at.nextSibling;
      var row = old[w.key];
      if (row && row.tooltraceLook !== w.look) {
        var fresh = w.make();
        fresh.tooltraceKey = w.key;
        fresh.tooltraceLook = w.look;
        list.replaceChild(fresh, row);
        if (at === row) at = fresh;
        row = fresh;
      }
      if (!row) { row = w.make(); row.tooltraceKey = w.key; row.tooltraceLook = w.look; }
      if (row === at) at = at.nextSibling;
      else list.insertBefore(row, at);
      rows[w.key] = row;
    });
    Object.keys(old).forEach(function (key) { if (!rows[key] && old[key].parentNode === list) list.removeChild(old[key]); });
    var selected = rows["t" + state.test];
    if (selectedRow !== selected && selectedRow) selectedRow.classList.remove("selected");
    if (selected) selected.classList.add("selected");
    selectedRow = selected;
  }
`;
