// `init`'s edit of a Jest config the project has: tooltrace's setup file and reporter added, nothing else touched.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "vitest";
import { addJestSetup } from "../../src/init/jest-config.js";

function edited(file: string, text: string, jestKey = false): { kind: string; text: string } {
  const folder = mkdtempSync(join(tmpdir(), "tooltrace-jest-config-"));
  writeFileSync(join(folder, file), text);
  const outcome = addJestSetup(folder, jestKey);
  return { kind: outcome.kind, text: readFileSync(join(folder, file), "utf8") };
}

test("an existing setupFilesAfterEnv gets tooltrace's last, on one line or on lines of their own", () => {
  expect(edited("jest.config.mjs", 'export default { setupFilesAfterEnv: ["./a.js"] };\n').text).toBe(
    'export default { reporters: ["default", "tooltrace/jest-reporter"], setupFilesAfterEnv: ["./a.js", "tooltrace/jest"] };\n',
  );
  expect(edited("jest.config.cjs", 'module.exports = {\n  setupFilesAfterEnv: [\n    "./a.js",\n    "./b.js",\n  ],\n};\n').text).toBe(
    'module.exports = {\n  reporters: ["default", "tooltrace/jest-reporter"],\n  setupFilesAfterEnv: [\n    "./a.js",\n    "./b.js",\n    "tooltrace/jest",\n  ],\n};\n',
  );
  expect(edited("jest.config.js", "module.exports = { setupFilesAfterEnv: [] };\n").text).toBe(
    'module.exports = { reporters: ["default", "tooltrace/jest-reporter"], setupFilesAfterEnv: ["tooltrace/jest"] };\n',
  );
});

test("an existing reporters list gets tooltrace's last; one init cannot read keeps the setup alone", () => {
  expect(edited("jest.config.js", 'module.exports = { reporters: ["default", ["jest-junit", {}]] };\n').text).toBe(
    'module.exports = { setupFilesAfterEnv: ["tooltrace/jest"], reporters: ["default", ["jest-junit", {}], "tooltrace/jest-reporter"] };\n',
  );
  expect(edited("jest.config.js", "module.exports = { reporters: mine };\n").text).toBe(
    'module.exports = { setupFilesAfterEnv: ["tooltrace/jest"], reporters: mine };\n',
  );
  // A setup list in another shape is not given a second key.
  expect(edited("jest.config.js", "module.exports = { setupFilesAfterEnv: mine };\n").kind).toBe("manual");
});

test("a TypeScript config's typed object, and an empty one, get the key first", () => {
  const ts = 'import type { Config } from "jest";\n\nconst config: Config = {\n\tpreset: "ts-jest",\n};\n\nexport default config;\n';
  expect(edited("jest.config.ts", ts).text).toBe(
    'import type { Config } from "jest";\n\nconst config: Config = {\n\tsetupFilesAfterEnv: ["tooltrace/jest"],\n\treporters: ["default", "tooltrace/jest-reporter"],\n\tpreset: "ts-jest",\n};\n\nexport default config;\n',
  );
  expect(edited("jest.config.mjs", "export default {};\n").text).toBe(
    'export default { setupFilesAfterEnv: ["tooltrace/jest"], reporters: ["default", "tooltrace/jest-reporter"] };\n',
  );
});

test("JSON configs keep their indentation; what init cannot read is left as it was", () => {
  const manifest = '{\n    "name": "p",\n    "jest": {\n        "verbose": true\n    }\n}\n';
  expect(edited("package.json", manifest, true).text).toBe(
    '{\n    "name": "p",\n    "jest": {\n        "verbose": true,\n        "reporters": [\n            "default",\n            "tooltrace/jest-reporter"\n        ],\n        "setupFilesAfterEnv": [\n            "tooltrace/jest"\n        ]\n    }\n}\n',
  );
  expect(edited("jest.config.json", '{ "setupFilesAfterEnv": "./one.js" }').kind).toBe("manual");
  expect(edited("jest.config.js", "module.exports = require('./base');\n")).toEqual({
    kind: "manual",
    text: "module.exports = require('./base');\n",
  });
  expect(edited("jest.config.js", 'module.exports = { setupFilesAfterEnv: ["tooltrace/jest"] };\n').kind).toBe("present");
});
