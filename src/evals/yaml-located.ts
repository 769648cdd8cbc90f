import type { StubConfigError } from "../exits/errors.js";
import { type YamlEvalCase, yamlError } from "./yaml-case.js";

/** A place in a YAML file: line and column, from 1. */
export interface YamlPlace {
  readonly line: number;
  readonly col: number;
}

/** A case of a YAML eval file, with where each of its fields is written. */
export interface LocatedYamlCase {
  readonly evalCase: YamlEvalCase;
  /** The file, as messages name it (from the project root). */
  readonly file: string;
  /** The key (or list item) at a JSON pointer inside the case: where it is written. */
  at(pointer: string): YamlPlace;
  /** A fault of the case at `pointer`: the file, the line and the case in its message, the YAML line its only frame. */
  fault(pointer: string, problem: string, fix?: string): StubConfigError;
  /** `error`, its stack the YAML line of `pointer` (a runner shows the YAML there, and no frame of tooltrace's). */
  pointAt<E extends Error>(error: E, pointer: string): E;
}

/** The case's located form, from the place of each pointer inside it. */
export function locatedCase(evalCase: YamlEvalCase, file: string, path: string, at: (pointer: string) => YamlPlace): LocatedYamlCase {
  const pointAt = <E extends Error>(error: E, pointer: string) => pointAtYaml(error, path, at(pointer));
  return {
    evalCase,
    file,
    at,
    pointAt,
    fault(pointer, problem, fix) {
      const place = at(pointer);
      return pointAt(yamlError(`${file}:${place.line}:${place.col}`, evalCase.name, pointer, problem, fix), pointer);
    },
  };
}

/**
 * Gives `error` one stack frame, `at <path>:<line>:<col>`: Vitest shows the code at the stack's first place, so
 * the user reads the YAML lines at fault rather than tooltrace's. (The case is named by the test and the message.)
 */
export function pointAtYaml<E extends Error>(error: E, path: string, place: YamlPlace): E {
  error.stack = `${error.name}: ${error.message}\n    at ${path}:${place.line}:${place.col}`;
  return error;
}
