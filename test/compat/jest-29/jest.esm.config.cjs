// Jest's ESM mode: run with node --experimental-vm-modules.
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/evals/**/*.jest-spec.mjs"],
  setupFilesAfterEnv: ["tooltrace/jest"],
  transform: {},
};
