// Type tests: `npm run typecheck` compiles this file. If the augmentation broke and fell back to `any`,
// the @ts-expect-error lines would stop erroring and the compile would fail.
import { expect } from "vitest";
import type { Turn } from "tooltrace";
import "tooltrace/vitest";

declare const turn: Turn;
expect(turn).toHaveCalledTool("list_tasks", { input: { id: 1 }, status: "failed", count: (n: number) => n > 1 });
expect(turn).not.toHaveToolOrder(["a", { tool: "b", input: {} }]);
expect(turn).toHaveFailedAction({ error: /x/ });
// @ts-expect-error status must be a known status
expect(turn).toHaveCalledTool("list_tasks", { status: "done" });
// @ts-expect-error the order is an array
expect(turn).toHaveToolOrder("a");
// @ts-expect-error unknown matcher
expect(turn).toHaveCalledToolz("x");
