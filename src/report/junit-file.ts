import { escapeHtml, xmlSafe } from "../exits/escape.js";
import { writeOut } from "../exits/out.js";
import { conversationText } from "./conversation-text.js";
import type { ReportTest } from "./report-data.js";

/** Text as an XML attribute or element content holds it. */
function xml(text: string): string {
  return escapeHtml(xmlSafe(text));
}

function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

/** One test as a JUnit test case: its failure, and a failing eval's conversation as its `system-out`. */
function testCase(test: ReportTest): string {
  const open = `    <testcase classname="${xml(test.file)}" name="${xml(test.fullName)}" time="${seconds(test.durationMs)}"`;
  const body: string[] = [];
  if (test.state === "failed") {
    const text = test.errors.join("\n\n");
    body.push(`      <failure message="${xml(text.split("\n")[0] ?? "")}" type="Error">${xml(text)}</failure>`);
    if (test.meta !== undefined && test.meta.sessions.length > 0)
      body.push(`      <system-out>${xml(conversationText(test.meta))}</system-out>`);
  } else if (test.state !== "passed") body.push("      <skipped/>");
  return body.length === 0 ? `${open}/>` : `${open}>\n${body.join("\n")}\n    </testcase>`;
}

/**
 * A run's tests as a JUnit XML file (the format CI systems show), a `testsuite` per test file, with each failing
 * eval's conversation as its test case's `system-out`: what the Vitest side adds to Vitest's JUnit reporter, for
 * a runner whose JUnit reporter (`jest-junit`) tooltrace cannot reach. The tests' texts and sessions come redacted
 * (`reportTests`); the file is redacted whole again on its way out.
 */
export function writeJunitFile(path: string, tests: readonly ReportTest[], at: Date = new Date()): void {
  const byFile = new Map<string, ReportTest[]>();
  for (const test of tests) byFile.set(test.file, [...(byFile.get(test.file) ?? []), test]);
  const failed = tests.filter((test) => test.state === "failed").length;
  const total = (inFile: readonly ReportTest[]) => inFile.reduce((sum, test) => sum + (test.durationMs ?? 0), 0);
  const suites = [...byFile].map(([file, inFile]) => {
    const failures = inFile.filter((test) => test.state === "failed").length;
    const skipped = inFile.filter((test) => test.state !== "passed" && test.state !== "failed").length;
    return [
      `  <testsuite name="${xml(file)}" tests="${inFile.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(total(inFile))}" timestamp="${at.toISOString()}">`,
      ...inFile.map(testCase),
      "  </testsuite>",
    ].join("\n");
  });
  const document = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="tooltrace" tests="${tests.length}" failures="${failed}" errors="0" time="${seconds(total(tests))}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
  writeOut("junit file", path, document);
}
