import { suggestName } from "../stubs/suggest.js";
import type { LocatedYamlCase } from "./yaml-located.js";
import type { EvalAgentFactory } from "./eval-agent.js";

/** An agent module as a case names it: its path and, after `#`, the export that builds the agent. */
export interface AgentSpec {
  readonly path: string;
  readonly exportName?: string;
}

/** `./agents.ts#refunds` as its path and export; `./agent.ts` as a path (its default export). */
export function splitAgentSpec(spec: string): AgentSpec {
  const hash = spec.lastIndexOf("#");
  return hash <= 0 ? { path: spec } : { path: spec.slice(0, hash), exportName: spec.slice(hash + 1) };
}

/**
 * The factory the case's agent module exports: the export `spec` names, else the default export (or `agent`).
 * An export the module lacks is a fault at the line that names the module (the case's `agent`, else its
 * `adapter`), with the export likely meant.
 */
export function agentFactoryOf(located: LocatedYamlCase, loaded: Readonly<Record<string, unknown>>, spec: string): EvalAgentFactory {
  const { evalCase } = located;
  const pointer = evalCase.agent !== undefined ? "/agent" : evalCase.adapter !== undefined ? "/adapter" : "/name";
  const { path, exportName } = splitAgentSpec(spec);
  const exports = Object.keys(loaded).filter((name) => name !== "default");
  const builders = exports.filter((name) => typeof loaded[name] === "function");
  if (exportName !== undefined) {
    if (!(exportName in loaded)) {
      const near = suggestName(exportName, exports);
      throw located.fault(
        pointer,
        `${path} has no export "${exportName}".`,
        near !== undefined
          ? `did you mean "${near}"? Its exports: ${exports.join(", ")}.`
          : `use one of its exports: ${exports.join(", ") || "(none)"}.`,
      );
    }
    const named = loaded[exportName];
    if (typeof named !== "function")
      throw located.fault(
        pointer,
        `${path}#${exportName} is not a function.`,
        `export const ${exportName} = defineEvalAgent(({ seed }) => ({ agent, tools })).`,
      );
    return named as EvalAgentFactory;
  }
  const factory = loaded.default ?? loaded.agent;
  if (typeof factory === "function") return factory as EvalAgentFactory;
  throw located.fault(
    pointer,
    `${path} has no default export that builds the agent.`,
    builders.length === 1
      ? `did you mean \`${path}#${builders[0]}\`? Or export default defineEvalAgent(({ seed }) => ({ agent, tools })).`
      : builders.length > 1
        ? `name the export after #, one of: ${builders.map((name) => `${path}#${name}`).join(", ")}.`
        : "export default defineEvalAgent(({ seed }) => ({ agent, tools })).",
  );
}
