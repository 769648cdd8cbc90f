// Jest's CommonJS mode (its default).
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/evals/**/*.jest-spec.cjs"],
  setupFilesAfterEnv: ["tooltrace/jest"],
  transform: {},
};
