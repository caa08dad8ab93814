/** A Benchmark over a folder of terminal tasks (`rllm eval <folder>` / `harbor:<path>`), run by the terminal cookbook. */
import type { Benchmark } from "rllm-ts/core";
import { loadTerminalTasks } from "./load-terminal-tasks.js";
import { terminalTaskOf } from "./terminal-task.js";

/** The benchmark of the tasks under `folder`; each task's unsupported fields go to `options.warn`. */
export function createTerminalBenchmark(folder: string, name: string = folder): Benchmark {
  return {
    name,
    description: `terminal tasks under ${folder}`,
    defaultCookbook: "terminal",
    async loadTasks(options) {
      const tasks = loadTerminalTasks(folder);
      for (const task of tasks) for (const warning of terminalTaskOf(task).warnings) options.warn?.(warning);
      return tasks;
    },
  };
}
