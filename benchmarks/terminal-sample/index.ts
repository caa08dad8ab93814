/** The `terminal-sample` benchmark: thirteen small offline terminal tasks in Harbor (and one Terminal-Bench v1) format, graded by their tests. */
import { InputError, packagePath, type Benchmark } from "rllm-ts/core";
import { createTerminalBenchmark } from "../harbor/terminal-benchmark.js";

/** Folder of the bundled tasks, relative to the package root. */
export const terminalSampleFolder = "benchmarks/terminal-sample/tasks";

const bundled = createTerminalBenchmark(packagePath(terminalSampleFolder), "terminal-sample");

export const terminalSampleBenchmark: Benchmark = {
  ...bundled,
  catalog: { kind: "agentic", size: "13 tasks", licence: "written here", grader: "the task's tests" },
  description: "Thirteen offline terminal tasks (files, text, a shell and a Python bug fix, permissions), each with an oracle solution; run with --agent oracle|nop|bash|terminus-2|llm-in-sandbox.",
  bundledSample: terminalSampleFolder,
  async loadTasks(options) {
    if (options.dataFile) throw new InputError("terminal-sample is a folder of tasks; give your own folder as the benchmark instead of --data");
    return bundled.loadTasks(options);
  },
};
