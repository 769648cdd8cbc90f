/**
 * The llm setup file's core, built as CommonJS beside the main setup's core (`vitest-setup-core.cjs`), whose
 * modules it shares: a file under `tooltrace({ llm: true })` loads the wire answerer and nothing twice.
 */
export { answerLlmForTheRun } from "../catchers/fetch-wire.js";
