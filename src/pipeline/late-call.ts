import { formatSource } from "../trace/format.js";
import type { Interaction } from "../trace/types.js";
import { settle } from "../base/settle.js";

/**
 * Runs a call that arrived after its turn ended and reports it once, with what answered it, once it is
 * answered (or at once when it throws before answering).
 */
export function runLate(record: Interaction, run: () => unknown, report: (outcome: string) => void): unknown {
  const done = () =>
    report(
      record.status === "pending"
        ? ""
        : `; ${record.status === "rejected" ? "refused" : "answered"} by ${formatSource(record.answeredBy, record.kind)}`,
    );
  return settle(
    run,
    (value) => {
      done();
      return value;
    },
    (error) => {
      done();
      throw error;
    },
  );
}
