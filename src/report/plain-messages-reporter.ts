import { stripVTControlCharacters } from "node:util";

interface TaskWithErrors {
  result?: { errors?: { message?: string }[] };
  tasks?: TaskWithErrors[];
}

/**
 * Added first among the reporters when a JUnit reporter runs: failure messages lose their terminal colours
 * before any reporter writes them (JUnit's `message` attribute kept the escapes).
 */
export function plainMessagesReporter(): { onTestRunEnd(modules: readonly { task: TaskWithErrors }[]): void } {
  const strip = (task: TaskWithErrors): void => {
    for (const error of task.result?.errors ?? [])
      if (typeof error.message === "string") error.message = stripVTControlCharacters(error.message);
    for (const child of task.tasks ?? []) strip(child);
  };
  return {
    onTestRunEnd(modules) {
      for (const module of modules) strip(module.task);
    },
  };
}
