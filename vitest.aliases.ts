import { fileURLToPath } from "node:url";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Tests and examples import tooltrace by its public names; in this repository those resolve to the sources. */
export const tooltraceAliases = [
  { find: /^tooltrace$/, replacement: here("./src/index.ts") },
  { find: /^tooltrace\/vitest$/, replacement: here("./src/vitest/index.ts") },
  { find: /^tooltrace\/matchers$/, replacement: here("./matchers/index.ts") },
  { find: /^tooltrace\/ai-sdk$/, replacement: here("./src/agents/ai-sdk.ts") },
  { find: /^tooltrace\/msw$/, replacement: here("./src/entries/msw.ts") },
  { find: /^tooltrace\/wire$/, replacement: here("./src/entries/wire.ts") },
  { find: /^tooltrace\/agents-sdk$/, replacement: here("./src/agents/openai-agents.ts") },
  { find: /^tooltrace\/cli$/, replacement: here("./src/cli/index.ts") },
  { find: /^tooltrace\/server$/, replacement: here("./src/entries/server.ts") },
];
