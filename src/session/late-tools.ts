import { suggestName } from "../stubs/suggest.js";
import type { SessionParts } from "./session-parts.js";

/**
 * For a session given no tools (its agent defines them inline): each rule that never answered names a tool the
 * agent used, or the session is told which it named, and which the agent had (a typo the setup could not see).
 */
export function checkLateTools(parts: SessionParts): void {
  const known = new Set(parts.tools.names.keys());
  if (!parts.toolsKnownLate || known.size === 0) return;
  const unused = new Set(parts.rules.unusedRuleIds());
  for (const [id, tool] of parts.rules.ruleTools()) {
    if (known.has(tool) || !unused.has(id)) continue;
    const near = suggestName(tool, known);
    parts.log.violation(
      `stub rule "${id}" names the tool "${tool}", which the agent never had${near ? `: did you mean "${near}"?` : "."} Its tools: ${[...known].sort().join(", ")}.`,
      undefined,
    );
  }
}
