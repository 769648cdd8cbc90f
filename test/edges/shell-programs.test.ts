import { test, expect } from "vitest";
import { programsOf, UNKNOWN_PROGRAM as U } from "../../src/edges/shell-programs.js";
test("every program a shell command line runs is named: chains, pipes, substitutions, wrappers, nested shells", () => {
  expect(programsOf('git --version; node -e "fetch(upstream)"')).toEqual(["git", "node"]);
  expect(programsOf("git log | grep x && curl a || wget b & sleep 1")).toEqual(["git", "grep", "curl", "wget", "sleep"]);
  expect(programsOf("echo $(curl x) `wget y`")).toEqual(["echo", "curl", "wget"]);
  expect(programsOf("FOO=1 env -i A=2 timeout 5 node x.js 2>&1 >/dev/null")).toEqual(["env", "timeout", "node"]);
  expect(programsOf("sh -c 'git status; rm -rf x'")).toEqual(["sh", "git", "rm"]);
  expect(programsOf("$CMD arg")).toEqual([U]);
  expect(programsOf("eval 'curl x'")).toEqual([U]);
  expect(programsOf("/usr/bin/git status")).toEqual(["git"]);
  expect(programsOf("xargs -n1 curl < urls")).toEqual(["xargs", "curl"]);
  expect(programsOf("if true; then git pull; fi")).toEqual(["git"]);
  expect(programsOf('echo "a; curl b"')).toEqual(["echo"]);
  expect(programsOf('echo "$(curl b)"')).toEqual(["echo", "curl"]);
});

// `git --version &>/dev/null node -e ...` ran node under dash (a background `&`) while the reader saw only git.
test("a line is read as dash and bash both read it: `&>` ends a command for dash, an escaped `>` is no redirection", () => {
  expect(programsOf('git --version &>/dev/null node -e "fetch(x)"')).toEqual(["git", "node"]);
  expect(programsOf('git --version \\>& node -e "fetch(x)"')).toEqual(["git", "node"]);
  expect(programsOf("git --version >&2 && node x")).toEqual(["git", "node"]);
  expect(programsOf("git log 2>&1 | node x")).toEqual(["git", "node"]);
  expect(programsOf("git status >&2")).toEqual(["git"]);
  expect(programsOf("git status '>'& node x")).toEqual(["git", "node"]);
});
